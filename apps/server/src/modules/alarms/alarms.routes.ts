import {
  AlarmAcknowledgeBodySchema,
  AlarmEmailSaveBodySchema,
  AlarmEmailSettingSchema,
  AlarmListQuerySchema,
  AlarmRuleSaveBodySchema,
  AlarmRuleSchema,
  AlarmRulesQuerySchema,
  AlarmSchema,
  AlarmSummarySchema,
  AlarmWebhookQuerySchema,
  AlarmWebhookSaveBodySchema,
  AlarmWebhookSaveResultSchema,
  AlarmWebhookSchema,
  IdBodySchema,
  envelopeOf,
} from '@ipp/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.ts';
import { ok } from '../../http/envelope.ts';
import type { AlarmsService } from './alarms.service.ts';
import type { WebhooksService } from './webhooks.service.ts';
import type { EmailNotifier } from './alarm-email.ts';

const ADMINS = ['superadmin', 'administrator'] as const;

export const alarmsRoutes = (service: AlarmsService, webhooks: WebhooksService, mailer: EmailNotifier): FastifyPluginAsyncZod =>
  async function (app) {
    app.get(
      '/alarm/rules',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['alarms'],
          summary: "The team's alarm rules (a superadmin names the team)",
          querystring: AlarmRulesQuerySchema,
          response: { 200: envelopeOf(z.array(AlarmRuleSchema)) },
        },
      },
      async (request) => ok(await service.rules(requireAuth(request).user, request.query.group_id)),
    );

    app.post(
      '/alarm/save-rule',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['alarms'],
          summary: 'Create an alarm rule (no id) or change one; a changed rule clears its open alarms and starts over',
          body: AlarmRuleSaveBodySchema,
          response: { 200: envelopeOf(AlarmRuleSchema) },
        },
      },
      async (request) => ok(await service.saveRule(requireAuth(request).user, request.body)),
    );

    app.post(
      '/alarm/remove-rule',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['alarms'],
          summary: 'Remove an alarm rule; its open alarms clear, its history stays',
          body: IdBodySchema,
          response: { 200: envelopeOf(z.object({ ok: z.literal(true) })) },
        },
      },
      async (request) => {
        await service.removeRule(requireAuth(request).user, request.body.id);
        return ok({ ok: true as const });
      },
    );

    app.get(
      '/alarm/list',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['alarms'],
          summary: "The team's alarms, newest first: open (active or acknowledged), one state, or all",
          querystring: AlarmListQuerySchema,
          response: { 200: envelopeOf(z.array(AlarmSchema)) },
        },
      },
      async (request) => {
        const { rows, total } = await service.list(requireAuth(request).user, request.query);
        return ok(rows, { count: total });
      },
    );

    app.get(
      '/alarm/summary',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['alarms'],
          summary: "How many of the team's alarms are active and acknowledged (the header's count)",
          response: { 200: envelopeOf(AlarmSummarySchema) },
        },
      },
      async (request) => ok(await service.summary(requireAuth(request).user)),
    );

    app.post(
      '/alarm/acknowledge',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['alarms'],
          summary: 'Acknowledge an active alarm of the team, with a note; it clears when its condition ends',
          body: AlarmAcknowledgeBodySchema,
          response: { 200: envelopeOf(z.object({ ok: z.literal(true) })) },
        },
      },
      async (request) => {
        await service.acknowledge(requireAuth(request).user, request.body);
        return ok({ ok: true as const });
      },
    );

    app.get(
      '/alarm/webhook',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['alarms'],
          summary: "The team's alarm webhook: its URL, the secret's last characters, and how its deliveries fare",
          querystring: AlarmWebhookQuerySchema,
          response: { 200: envelopeOf(AlarmWebhookSchema) },
        },
      },
      async (request) => ok(await webhooks.get(requireAuth(request).user, request.query.group_id)),
    );

    app.post(
      '/alarm/save-webhook',
      {
        config: { access: ADMINS },
        schema: {
          tags: ['alarms'],
          summary: 'Set (or remove, url null) the URL alarms are posted to; a new signing secret is answered once',
          body: AlarmWebhookSaveBodySchema,
          response: { 200: envelopeOf(AlarmWebhookSaveResultSchema) },
        },
      },
      async (request) => ok(await webhooks.save(requireAuth(request).user, request.body)),
    );

    app.get(
      '/alarm/my-email',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['alarms'],
          summary: 'Which alarms the caller is e-mailed about, the address, and whether this server sends e-mail',
          response: { 200: envelopeOf(AlarmEmailSettingSchema) },
        },
      },
      async (request) => ok(await service.emailSetting(requireAuth(request).user, mailer.enabled)),
    );

    app.post(
      '/alarm/save-my-email',
      {
        config: { access: 'signed-in' },
        schema: {
          tags: ['alarms'],
          summary: "Choose which alarms to be e-mailed about: none, the team's, or the followed stations'",
          body: AlarmEmailSaveBodySchema,
          response: { 200: envelopeOf(AlarmEmailSettingSchema) },
        },
      },
      async (request) => {
        const user = requireAuth(request).user;
        await service.saveEmailChoice(user, request.body.alarm_email);
        return ok(await service.emailSetting(user, mailer.enabled));
      },
    );
  };
