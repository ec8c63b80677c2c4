import { API } from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../http/endpoint.ts';
import { ADMINS, requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import { sendCsv } from '../../http/csv-reply.ts';
import { parseLang } from '../../http/messages.ts';
import type { AlarmExportService } from './alarm-export.service.ts';
import type { AlarmsService } from './alarms.service.ts';
import type { WebhooksService } from './webhooks.service.ts';
import type { EmailNotifier } from './alarm-email.ts';
import type { SilencesService } from './silences.service.ts';
import type { AlarmCommentsService } from './comments.service.ts';

export const alarmsRoutes = (
  service: AlarmsService,
  webhooks: WebhooksService,
  mailer: EmailNotifier,
  silences: SilencesService,
  comments: AlarmCommentsService,
  history: AlarmExportService,
): FastifyPluginAsyncZod =>
  async function (app) {
    app.route({
      ...endpoint(API.alarmRules, { tags: ['alarms'], summary: "The team's alarm rules (a superadmin names the team)" }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await service.rules(requireAuth(request).user, request.query.group_id)),
    });

    app.route({
      ...endpoint(API.alarmSaveRule, {
        tags: ['alarms'],
        summary: 'Create an alarm rule (no id) or change one; a changed rule clears its open alarms and starts over',
      }),
      config: { access: ADMINS },
      handler: async (request) => ok(await service.saveRule(requireAuth(request).user, request.body)),
    });

    app.route({
      ...endpoint(API.alarmRemoveRule, {
        tags: ['alarms'],
        summary: 'Remove an alarm rule; its open alarms clear, its history stays',
      }),
      config: { access: ADMINS },
      handler: async (request) => {
        await service.removeRule(requireAuth(request).user, request.body.id);
        return ok({ ok: true as const });
      },
    });

    app.route({
      ...endpoint(API.alarmList, {
        tags: ['alarms'],
        summary: "The team's alarms, newest first: open (active or acknowledged), one state, or all",
      }),
      config: { access: 'signed-in' },
      handler: async (request) => {
        const { rows, total } = await service.list(requireAuth(request).user, request.query);
        return ok(rows, { count: total });
      },
    });

    app.route({
      ...endpoint(API.alarmSummary, {
        tags: ['alarms'],
        summary: "How many of the team's alarms are active and acknowledged (the header's count)",
      }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await service.summary(requireAuth(request).user)),
    });

    app.route({
      ...endpoint(API.alarmExport, {
        tags: ['alarms'],
        summary:
          "The team's alarms raised in a period (any state, oldest first, maybe one station) as CSV, header in the caller's language",
        produces: ['text/csv'],
      }),
      config: { access: 'signed-in', expensive: true },
      handler: async (request, reply) => {
        const file = await history.csv(requireAuth(request).user, request.query, parseLang(request.headers['x-lang']));
        return sendCsv(reply, file.filename, file.text);
      },
    });

    app.route({
      ...endpoint(API.alarmAcknowledge, {
        tags: ['alarms'],
        summary: 'Acknowledge an active alarm of the team, with a note; it clears when its condition ends',
      }),
      config: { access: 'signed-in' },
      handler: async (request) => {
        await service.acknowledge(requireAuth(request).user, request.body);
        return ok({ ok: true as const });
      },
    });

    app.route({
      ...endpoint(API.alarmWebhook, {
        tags: ['alarms'],
        summary: "The team's alarm webhook: its URL, the secret's last characters, and how its deliveries fare",
      }),
      config: { access: ADMINS },
      handler: async (request) => ok(await webhooks.get(requireAuth(request).user, request.query.group_id)),
    });

    app.route({
      ...endpoint(API.alarmSaveWebhook, {
        tags: ['alarms'],
        summary: 'Set (or remove, url null) the URL alarms are posted to; a new signing secret is answered once',
      }),
      config: { access: ADMINS },
      handler: async (request) => ok(await webhooks.save(requireAuth(request).user, request.body)),
    });

    app.route({
      ...endpoint(API.alarmMyEmail, {
        tags: ['alarms'],
        summary: 'Which alarms the caller is e-mailed about, the address, and whether this server sends e-mail',
      }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await service.emailSetting(requireAuth(request).user, mailer.enabled)),
    });

    app.route({
      ...endpoint(API.alarmSaveMyEmail, {
        tags: ['alarms'],
        summary: "Choose which alarms to be e-mailed about: none, the team's, or the followed stations'",
      }),
      config: { access: 'signed-in' },
      handler: async (request) => {
        const user = requireAuth(request).user;
        await service.saveEmailChoice(user, request.body.alarm_email);
        return ok(await service.emailSetting(user, mailer.enabled));
      },
    });

    app.route({
      ...endpoint(API.alarmClear, {
        tags: ['alarms'],
        summary: 'Clear an open alarm of the team by hand, with a reason (administrators); receivers hear it cleared',
      }),
      config: { access: ADMINS },
      handler: async (request) => {
        await service.clear(requireAuth(request).user, request.body);
        return ok({ ok: true as const });
      },
    });

    app.route({
      ...endpoint(API.alarmComments, { tags: ['alarms'], summary: "An alarm's comment thread, oldest first" }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await comments.comments(requireAuth(request).user, request.query.id)),
    });

    app.route({
      ...endpoint(API.alarmComment, { tags: ['alarms'], summary: 'Add a comment to an alarm of the team' }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await comments.comment(requireAuth(request).user, request.body)),
    });

    app.route({
      ...endpoint(API.alarmTestWebhook, {
        tags: ['alarms'],
        summary: "Post a test notice (alarm.test) to the team's webhook now and say how it went",
      }),
      config: { access: ADMINS },
      handler: async (request) => ok(await webhooks.test(requireAuth(request).user, request.body.group_id)),
    });

    app.route({
      ...endpoint(API.alarmTestEmail, {
        tags: ['alarms'],
        summary: "Send a test alarm e-mail to the caller's own address now and say how it went",
      }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await mailer.test(requireAuth(request).user, await service.defaultLanguage())),
    });

    app.route({
      ...endpoint(API.alarmSilences, {
        tags: ['alarms'],
        summary: "The team's silences running now or planned (maintenance windows), soonest end first",
      }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await silences.list(requireAuth(request).user, request.query.group_id)),
    });

    app.route({
      ...endpoint(API.alarmSaveSilence, {
        tags: ['alarms'],
        summary: 'Silence the alarms of a station, a rule, both or the whole team for a period, with a reason',
      }),
      config: { access: 'signed-in' },
      handler: async (request) => ok(await silences.save(requireAuth(request).user, request.body)),
    });

    app.route({
      ...endpoint(API.alarmEndSilence, {
        tags: ['alarms'],
        summary: 'End a silence now (a planned one never starts); held notices of still-active alarms go out',
      }),
      config: { access: 'signed-in' },
      handler: async (request) => {
        await silences.end(requireAuth(request).user, request.body.id);
        return ok({ ok: true as const });
      },
    });
  };
