import {
  ALARM_EMAIL_CHOICES,
  DEFAULT_SEVERITY,
  limitDirection,
  MAX_ALARM_RULES_PER_TEAM,
  type AlarmNoticeReason,
  type NoDataAction,
  type AlarmEmailChoice,
  type AlarmEmailSetting,
  ResultCode,
  type Alarm,
  type AlarmListQuery,
  type AlarmRule,
  type AlarmRuleSave,
  type AlarmSummary,
  type Lang,
} from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { EventBus } from '../events/event-bus.ts';
import { findTeamById } from '../teams/teams.repository.ts';
import { ownsTeamObject, teamActedOn, visibleGroup } from '../access/access.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import { evaluate } from './alarm-conditions.ts';
import { concentrationsOf, seriesBeforeOf, stationNow } from './alarm-station.ts';
import * as repo from './alarms.repository.ts';
import * as silenceRepo from './silences.repository.ts';
import { presentAlarm, presentRule } from './alarm-present.ts';
import { noDataFiring, raise } from './alarm-raise.ts';
import { escalationDue, routeOf, type NoticeRoute } from './alarm-routing.ts';
import { ruleLimits, ruleRoutingFields, ruleSeriesFields } from './rule-fields.ts';
import { teamNotFound } from '../access/not-found.ts';

const ruleNotFound = () => new AppError(ResultCode.BAD_PARAM, 'alarmRuleNotFound', {}, 'id');
/** Whether the actor sees a team's rules and alarms: its own team, or any for a superadmin. */
const inTeamOf = (actor: UserRow, groupId: number) => ownsTeamObject(actor, groupId);
const alarmNotFound = () => new AppError(ResultCode.BAD_PARAM, 'alarmNotFound', {}, 'id');

/** What a notifier may need: read before the alarm's transaction, and the notice's route (absent: DEFAULT_ROUTE). */
export interface NoticeContext {
  defaultLanguage: Lang;
  route?: NoticeRoute;
}

/**
 * A way alarms reach people beyond the console. `enqueue` writes its notices (outbox rows) in the transaction that
 * raised or re-notified the alarm, so a notice is never lost between the alarm's commit and its queueing; `committed`
 * runs after that transaction commits (send soon).
 */
export interface AlarmNotifier {
  enqueue(trx: Kysely<Database>, alarm: Alarm, reason: AlarmNoticeReason, context: NoticeContext): Promise<void>;
  committed?(): void;
}

/**
 * Alarm rules and the alarms they raise (issue 23). Each station is evaluated after each of its reports and by a
 * periodic check (silence raises no report); evaluations of one station run one at a time in this process, and the
 * database keeps one open alarm per rule and station when several processes evaluate at once.
 */
export class AlarmsService {
  private readonly running = new Map<number, Promise<void>>();
  private readonly again = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private readonly notifiers: AlarmNotifier[] = [];

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: SettingsService,
    private readonly events: EventBus,
    private readonly onError: (error: unknown) => void,
  ) {}

  useNotifier(notifier: AlarmNotifier) {
    this.notifiers.push(notifier);
  }

  async rules(actor: UserRow, groupId?: number): Promise<AlarmRule[]> {
    const group = visibleGroup(actor, groupId) ?? actor.group_id;
    if (group === null || group === undefined) return [];
    return (await repo.rulesOfGroup(this.db.kysely, group)).map(presentRule);
  }

  async saveRule(actor: UserRow, body: AlarmRuleSave) {
    const now = this.clock();
    const context = await this.noticeContext();
    const id = await this.db.kysely.transaction().execute(async (trx) => {
      const existing = body.id === undefined ? undefined : await repo.findRule(trx, body.id);
      if (body.id !== undefined && !existing) throw ruleNotFound();
      const group = existing ? existing.group_id : teamActedOn(actor, body.group_id);
      if (!existing && !(await findTeamById(trx, group))) throw teamNotFound();
      if (existing && !inTeamOf(actor, existing.group_id)) throw ruleNotFound();
      if (body.kind === 'class_concentration' && body.class_id !== null) {
        // A shared or system class, or one of this team's own: another team's class is not theirs to watch.
        const cls = await repo.classOwner(trx, body.class_id);
        if (!cls || (cls.group_id !== null && cls.group_id !== group))
          throw new AppError(ResultCode.BAD_PARAM, 'classNotFound', {}, 'class_id');
      }
      if (body.ipp_id !== null) {
        const ipp = await repo.ippIdentity(trx, body.ipp_id);
        if (!ipp || ipp.group_id !== group) throw new AppError(ResultCode.BAD_PARAM, 'ippNotFound', {}, 'ipp_id');
      }
      const values = {
        name: body.name,
        kind: body.kind,
        threshold: body.threshold,
        class_id: body.kind === 'class_concentration' ? body.class_id : null,
        ...ruleSeriesFields(body),
        ipp_id: body.ipp_id,
        enabled: body.enabled ? 1 : 0,
        renotify_minutes: body.renotify_minutes,
        severity: body.severity ?? DEFAULT_SEVERITY[body.kind],
        for_minutes: body.for_minutes,
        clear_threshold: limitDirection(body) ? body.clear_threshold : null,
        no_data: body.no_data,
        ...(await ruleRoutingFields(trx, group, body)),
        updated_at: now,
      };
      if (existing) {
        // A changed rule starts over: its open alarms were about the old condition (whoever heard them raise, by the
        // old routing, hears them clear).
        await this.notifyAll(trx, await repo.clearAlarmsOfRule(trx, existing.id, now), 'cleared', context);
        await repo.updateRule(trx, existing.id, values);
        return existing.id;
      }
      if ((await repo.countRules(trx, group)) >= MAX_ALARM_RULES_PER_TEAM)
        throw new AppError(ResultCode.FAILED, 'alarmRuleLimit', { max: MAX_ALARM_RULES_PER_TEAM });
      return repo.insertRule(trx, { ...values, group_id: group, created_by: actor.id, created_at: now });
    });
    this.committed();
    const rule = (await repo.findRuleWithClass(this.db.kysely, id))!;
    this.evaluateGroupSoon(rule.group_id);
    return presentRule(rule);
  }

  async removeRule(actor: UserRow, id: number) {
    const now = this.clock();
    const context = await this.noticeContext();
    const cleared = await this.db.kysely.transaction().execute(async (trx) => {
      const rule = await repo.findRule(trx, id);
      if (!rule || !inTeamOf(actor, rule.group_id)) throw ruleNotFound();
      const rows = await repo.clearAlarmsOfRule(trx, id, now);
      await this.notifyAll(trx, rows, 'cleared', context);
      await repo.deleteRule(trx, id);
      return { group: rule.group_id, ipps: rows.map((r) => r.ipp_id) };
    });
    this.committed();
    for (const ipp of new Set(cleared.ipps)) this.announce(cleared.group, ipp);
  }

  async list(actor: UserRow, query: AlarmListQuery) {
    const filter = { groupId: visibleGroup(actor), state: query.state, ippId: query.ipp_id, kind: query.kind, id: query.id };
    const { rows, total } = await repo.listAlarms(this.db.kysely, filter, query.page, query.limit, this.clock());
    return { rows: rows.map(presentAlarm), total };
  }

  summary(actor: UserRow): Promise<AlarmSummary> {
    return repo.countOpen(this.db.kysely, visibleGroup(actor));
  }

  /** Anyone of the alarm's team acknowledges an active alarm, with a note; it stays open until its condition ends. */
  async acknowledge(actor: UserRow, body: { id: number; note: string }) {
    const now = this.clock();
    const context = await this.noticeContext();
    const alarm = await this.db.kysely.transaction().execute(async (trx) => {
      const row = await repo.findAlarm(trx, body.id);
      if (!row || !inTeamOf(actor, row.group_id)) throw alarmNotFound();
      if (row.state !== 'active') throw new AppError(ResultCode.FAILED, 'alarmNotActive');
      const changed = await repo.acknowledgeAlarm(trx, row.id, {
        acknowledged_at: now,
        acknowledged_by: actor.id,
        acknowledged_by_name: actor.account,
        ack_note: body.note || null,
      });
      if (changed === 0) throw new AppError(ResultCode.FAILED, 'alarmNotActive');
      await this.notifyAll(trx, [row], 'acknowledged', context);
      return row;
    });
    this.committed();
    this.announce(alarm.group_id, alarm.ipp_id);
  }

  /**
   * An administrator of the alarm's team clears an open alarm by hand, with a reason; receivers hear it cleared. A
   * pending alarm is not cleared by hand (nothing was raised); one that cleared meanwhile is refused.
   */
  async clear(actor: UserRow, body: { id: number; reason: string }) {
    const now = this.clock();
    const context = await this.noticeContext();
    const alarm = await this.db.kysely.transaction().execute(async (trx) => {
      const row = await repo.findAlarm(trx, body.id);
      if (!row || !inTeamOf(actor, row.group_id)) throw alarmNotFound();
      const changed = await repo.clearByHand(trx, row.id, {
        cleared_at: now,
        cleared_by_name: actor.account,
        clear_reason: body.reason,
      });
      if (changed === 0) throw new AppError(ResultCode.FAILED, 'alarmNotOpen');
      await this.notifyAll(trx, [{ ...row, state: 'cleared' }], 'cleared', context);
      return row;
    });
    this.committed();
    this.announce(alarm.group_id, alarm.ipp_id);
  }

  async emailSetting(actor: UserRow, available: boolean): Promise<AlarmEmailSetting> {
    const row = await repo.userEmailChoice(this.db.kysely, actor.id);
    const choice = ALARM_EMAIL_CHOICES.find((c) => c === row?.alarm_email) ?? 'off';
    return { alarm_email: choice, email: row?.email ?? '', available };
  }

  async saveEmailChoice(actor: UserRow, choice: AlarmEmailChoice) {
    await repo.setUserEmailChoice(this.db.kysely, actor.id, choice, this.clock());
  }

  /** After a station's report: evaluates it soon, once however many reports arrive meanwhile. */
  stationReported(ippId: number) {
    if (this.running.has(ippId)) {
      this.again.add(ippId);
      return;
    }
    const run = this.evaluateStation(ippId)
      .catch(this.onError)
      .finally(() => {
        this.running.delete(ippId);
        if (this.again.delete(ippId)) this.stationReported(ippId);
      });
    this.running.set(ippId, run);
  }

  /** Every station with rules, one after another (the periodic check for silence; tests call it directly). */
  async checkAll() {
    this.checking ??= (async () => {
      try {
        // Through the same one-at-a-time path as reports, so a report arriving meanwhile waits for this evaluation.
        for (const id of await repo.stationsWithRules(this.db.kysely)) {
          await this.running.get(id);
          this.stationReported(id);
          await this.running.get(id);
        }
      } finally {
        this.checking = null;
      }
    })();
    return this.checking;
  }

  /** Waits for the evaluations under way (tests; shutdown). */
  async settled() {
    while (this.running.size > 0 || this.checking) await Promise.all([...this.running.values(), this.checking]);
  }

  start(intervalMs: number) {
    this.timer ??= setInterval(() => void this.checkAll().catch(this.onError), intervalMs);
    this.timer.unref();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.settled();
  }

  /** Every station of a team, soon (a rule changed; a silence ended, so held notices go). */
  evaluateGroupSoon(groupId: number) {
    void repo
      .stationIdsOfGroup(this.db.kysely, groupId)
      .then((ids) => ids.forEach((id) => this.stationReported(id)))
      .catch(this.onError);
  }

  /**
   * Raises, refreshes and clears the alarms of one station against its rules now, in one transaction. A rule with a
   * duration first opens a pending alarm, which raises once its condition has held that long and goes (leaving no
   * history) if the condition ends sooner; an open alarm clears at the rule's clear level; no data does what the rule
   * says (keep, raise, clear).
   */
  async evaluateStation(ippId: number) {
    const now = this.clock();
    const settings = await this.settings.get();
    const offlineMs = settings.offline_minutes * 60_000;
    const context: NoticeContext = { defaultLanguage: settings.default_language };
    // The team whose alarms changed (the open pages are told), or null when nothing did.
    const changedIn = await this.db.kysely.transaction().execute(async (trx) => {
      const station = await repo.stationForAlarms(trx, ippId);
      if (!station) return null;
      const rules = await repo.enabledRulesFor(trx, station.group_id, ippId);
      const ruleById = new Map(rules.map((r) => [r.id, r]));
      const open = new Map((await repo.openAlarmsOf(trx, ippId)).map((a) => [a.rule_id, a]));
      const view = {
        ...stationNow(station, now, offlineMs),
        concentrations: await concentrationsOf(trx, ippId, rules, now),
        seriesBefore: await seriesBeforeOf(trx, ippId, rules, now),
      };
      const silences = await silenceRepo.silencesOfStation(trx, station.group_id, ippId, now);
      const silenced = (ruleId: number) => silences.some((x) => x.rule_id === null || x.rule_id === ruleId);
      let changed = false;
      // The classes the rules and open alarms name, read once for every notice of this evaluation.
      const classIds = [...rules, ...open.values()].flatMap((r) => (r.class_id === null ? [] : [r.class_id]));
      const names = await repo.classNames(trx, [...new Set(classIds)]);
      const notify = async (alarm: repo.AlarmRow, reason: AlarmNoticeReason) => {
        changed = true;
        const class_name = alarm.class_id === null ? null : (names.get(alarm.class_id) ?? null);
        const presented = presentAlarm({
          ...alarm,
          dev_id: station.dev_id,
          site_name: station.site_name,
          time_zone: station.time_zone,
          longitude: station.longitude,
          class_name,
          silenced: alarm.rule_id !== null && silenced(alarm.rule_id),
        });
        const route = routeOf(alarm.rule_id === null ? undefined : ruleById.get(alarm.rule_id), reason);
        for (const notifier of this.notifiers) await notifier.enqueue(trx, presented, reason, { ...context, route });
      };
      for (const rule of rules) {
        const current = open.get(rule.id);
        const raisedAlready = current !== undefined && current.state !== 'pending';
        const condition = evaluate(ruleLimits(rule), view, raisedAlready);
        // No data from a station that never reported is not an outage: it was never deployed.
        const firing = condition.firing ?? (view.lastOnlineAt === null ? null : noDataFiring(rule.no_data as NoDataAction));
        // A silence holds raises (notified_at stays null) and re-notices; what follows a raise the receivers heard
        // (acknowledged, cleared) is still told, so their incident closes.
        const quiet = silenced(rule.id);
        if (current?.state === 'active' && current.notified_at === null && !quiet && firing !== false) {
          // A raise a silence held, told now that the silence is over (still open, whatever the station shows now).
          if (await repo.markNotified(trx, current.id, null, now)) {
            current.notified_at = now;
            await notify(current, 'raised');
          }
        }
        if (firing === true && !current) {
          const pending = rule.for_minutes > 0;
          const raised = await raise(trx, rule, station, condition.value, now, pending, quiet);
          if (raised && !pending && !quiet) await notify(raised, 'raised');
          changed ||= raised !== null;
        } else if (firing === true && current?.state === 'pending') {
          if (now - current.raised_at >= rule.for_minutes * 60_000) {
            // Only the evaluation that promotes it notifies (two at once, or two processes, notify once).
            const promoted = { value: condition.value, raised_at: now };
            if (await repo.promotePending(trx, current.id, promoted, !quiet)) {
              if (!quiet) await notify({ ...current, ...promoted, state: 'active', notified_at: now }, 'raised');
              changed = true;
            }
          } else await repo.updateAlarm(trx, current.id, { value: condition.value, last_seen_at: now });
        } else if (firing === true && current) {
          await repo.updateAlarm(trx, current.id, { value: condition.value, last_seen_at: now });
          const seen = { ...current, value: condition.value, last_seen_at: now };
          if (quiet || current.state !== 'active' || current.notified_at === null) continue;
          // Only the evaluation that moves notified_at notifies: two at once (a report during the periodic check, or
          // another process) notify once.
          if (
            rule.renotify_minutes > 0 &&
            now - current.notified_at >= rule.renotify_minutes * 60_000 &&
            (await repo.markNotified(trx, current.id, current.notified_at, now))
          )
            await notify(seen, 'again');
        } else if (firing === false && current?.state === 'pending') {
          await repo.dropPending(trx, current.id);
          changed = true;
        } else if (firing === false && current) {
          // Only a reading that shows the condition ended (or no data, where the rule says so) clears it.
          const result = await repo.updateAlarm(trx, current.id, { state: 'cleared', cleared_at: now });
          if (Number(result.numUpdatedRows) === 0) continue;
          changed = true;
          if (current.notified_at !== null) await notify({ ...current, state: 'cleared', cleared_at: now }, 'cleared');
        }
      }
      // Still unacknowledged past the rule's escalation time: told once more, to the escalation's people and channel.
      for (const rule of rules) {
        const current = open.get(rule.id);
        if (!current || silenced(rule.id) || !escalationDue(rule, current, now)) continue;
        if (await repo.markEscalated(trx, current.id, now)) await notify({ ...current, escalated_at: now }, 'escalated');
      }
      return changed ? station.group_id : null;
    });
    if (changedIn === null) return;
    this.committed();
    this.announce(changedIn, ippId);
  }

  private async noticeContext(): Promise<NoticeContext> {
    return { defaultLanguage: await this.defaultLanguage() };
  }

  /** The site's default language: messages to users who chose none. */
  async defaultLanguage(): Promise<Lang> {
    return (await this.settings.get()).default_language;
  }

  /** Notices of alarms read outside an evaluation (acknowledged, cleared by a rule's change), with their names. */
  private async notifyAll(
    trx: Kysely<Database>,
    rows: readonly repo.AlarmRow[],
    reason: AlarmNoticeReason,
    context: NoticeContext,
  ) {
    for (const row of rows) {
      // Receivers hear what follows a raise only if they heard the raise (a silence may have held it).
      if (row.state === 'pending' || row.notified_at === null) continue;
      const named = await repo.alarmWithNames(trx, row.id, this.clock());
      if (!named) continue;
      const presented = presentAlarm(named);
      const rule = row.rule_id === null ? undefined : await repo.findRule(trx, row.rule_id);
      const route = routeOf(rule, reason);
      for (const notifier of this.notifiers) await notifier.enqueue(trx, presented, reason, { ...context, route });
    }
  }

  /** After a transaction that queued notices commits: the notifiers send soon. */
  private committed() {
    for (const notifier of this.notifiers) notifier.committed?.();
  }

  private announce(groupId: number, ippId: number) {
    this.events.publish({ group_id: groupId, event: { type: 'alarm', ipp_id: ippId, at: this.clock() } });
  }
}
