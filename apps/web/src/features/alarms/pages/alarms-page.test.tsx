import type { AlarmRule } from '@ipp/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appRouteObjects } from '@/app/router';
import { setLanguage } from '@/i18n';
import { formatTime } from '@/lib/format';
import { typeRange } from '@/test/date';
import { ippFixture } from '@/test/fixtures';
import { callsTo, failField, lastBody, mockServer, pageEnvelope, signIn, USER_INFO, type Handler } from '@/test/mock-server';
import { okEnvelope, renderRoutes } from '@/test/render';
import { pickOption } from '@/test/select';
import { alarmFixture, alarmSummaryFixture, ruleFixture } from '@/test/alarm-fixtures';

const ALARM = alarmFixture();
const RULE = ruleFixture();
const NO_WEBHOOK = { url: null, secret_hint: null, updated_at: null, pending: 0, failed: 0, last_delivery: null };

function server(role: 'administrator' | 'user', extra: Record<string, Handler> = {}) {
  return mockServer({
    '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role }),
    '/api/alarm/list': () => pageEnvelope([ALARM], 1),
    '/api/alarm/summary': () => okEnvelope(alarmSummaryFixture({ critical: 1 })),
    '/api/alarm/rules': () => okEnvelope([RULE]),
    '/api/alarm/webhook': () => okEnvelope(NO_WEBHOOK),
    '/api/alarm/my-email': () => okEnvelope({ alarm_email: 'off', email: 'me@example.org', available: true }),
    '/api/alarm/save-my-email': (_url, init) =>
      okEnvelope({ email: 'me@example.org', available: true, ...(JSON.parse(String(init?.body)) as object) }),
    '/api/ipp/index': () => pageEnvelope([], 0),
    '/api/alarm/acknowledge': () => okEnvelope({ ok: true }),
    '/api/alarm/save-rule': (_url, init) => okEnvelope({ ...RULE, id: 4, ...(JSON.parse(String(init?.body)) as object) }),
    '/api/alarm/comments': () =>
      okEnvelope([{ id: 1, alarm_id: 7, user_name: 'li.wei', text: 'diver booked', created_at: Date.UTC(2026, 10, 27, 2) }]),
    '/api/alarm/comment': (_url, init) =>
      okEnvelope({ id: 2, alarm_id: 7, user_name: 'me', created_at: 1, ...(JSON.parse(String(init?.body)) as object) }),
    '/api/alarm/clear': () => okEnvelope({ ok: true }),
    '/api/alarm/test-webhook': () => okEnvelope({ ok: false, error: 'timeout' }),
    '/api/alarm/test-email': () => okEnvelope({ ok: true, error: null }),
    '/api/alarm/silences': () =>
      okEnvelope([
        {
          id: 5,
          group_id: 1,
          ipp_id: 2,
          site_name: 'Daya Bay (21001)',
          rule_id: null,
          rule_name: null,
          starts_at: Date.UTC(2026, 10, 27, 1),
          ends_at: Date.UTC(2099, 0, 1),
          reason: 'diver maintenance',
          created_by_name: 'li.wei',
          created_at: 1,
        },
      ]),
    '/api/alarm/save-silence': (_url, init) =>
      okEnvelope({
        id: 6,
        group_id: 1,
        ipp_id: null,
        site_name: null,
        rule_id: null,
        rule_name: null,
        starts_at: 1,
        ends_at: 2,
        reason: 'x',
        created_by_name: 'me',
        created_at: 1,
        ...(JSON.parse(String(init?.body)) as object),
      }),
    '/api/alarm/end-silence': () => okEnvelope({ ok: true }),
    ...extra,
  });
}

beforeEach(async () => {
  await setLanguage('en');
});

describe('alarms page', () => {
  it('lists open alarms with what raised them, filters by state and acknowledges one with a note', async () => {
    signIn('user');
    const fetchMock = server('user');
    renderRoutes(appRouteObjects, ['/alarms']);
    const user = userEvent.setup();
    // The table takes its scroll width once it has rows (an empty one keeps its own: issue 37), so it is read then.
    await screen.findByText('Daya Bay (21001)');
    const table = screen.getByTestId('alarm-table');
    expect(within(table).getByText('Internal humidity above 80 %')).toBeTruthy();
    expect(within(table).getByText('91.2 %')).toBeTruthy();
    expect(screen.getByTestId('alarm-state-7').textContent).toBe('Active');
    expect(callsTo(fetchMock, '/api/alarm/list').at(-1)?.url.searchParams.get('state')).toBe('open');

    await user.click(screen.getByText('Cleared'));
    await waitFor(() => expect(callsTo(fetchMock, '/api/alarm/list').at(-1)?.url.searchParams.get('state')).toBe('cleared'));
    await user.click(screen.getByText('Open'));

    await user.click(await screen.findByTestId('alarm-ack-7'));
    await user.type(await screen.findByTestId('alarm-ack-note'), 'diver sent');
    await user.click(screen.getByTestId('alarm-ack-submit'));
    await waitFor(() => expect(lastBody(fetchMock, '/api/alarm/acknowledge')).toEqual({ id: 7, note: 'diver sent' }));
  });

  it('lets a user read the rules but not change them; no webhook for users', async () => {
    signIn('user');
    const fetchMock = server('user');
    renderRoutes(appRouteObjects, ['/alarms']);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Rules' }));
    await within(await screen.findByTestId('alarm-rule-table')).findByText('Leak');
    expect(screen.queryByTestId('alarm-rule-add')).toBeNull();
    expect(screen.queryByTestId('alarm-webhook')).toBeNull();
    expect(callsTo(fetchMock, '/api/alarm/webhook')).toHaveLength(0);
    // Everyone chooses their own e-mails.
    await user.click(await screen.findByText('Alarms of the stations I follow'));
    await waitFor(() => expect(lastBody(fetchMock, '/api/alarm/save-my-email')).toEqual({ alarm_email: 'followed' }));
    expect(screen.getByText('Sent to me@example.org')).toBeTruthy();
  });

  it('lets an administrator add a rule, asking for the limit the kind needs', async () => {
    signIn('administrator');
    const fetchMock = server('administrator');
    renderRoutes(appRouteObjects, ['/alarms']);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Rules' }));
    await screen.findByTestId('alarm-webhook');
    await user.click(await screen.findByTestId('alarm-rule-add'));
    await user.type(await screen.findByTestId('alarm-rule-name'), 'Station down');
    const minutes = screen.getByTestId('alarm-rule-minutes');
    await user.clear(minutes);
    await user.click(screen.getByTestId('alarm-rule-submit'));
    expect(await screen.findByText('Please enter the limit')).toBeTruthy();
    await user.type(minutes, '20');
    await user.click(screen.getByTestId('alarm-rule-submit'));
    await waitFor(() =>
      expect(lastBody(fetchMock, '/api/alarm/save-rule')).toEqual({
        name: 'Station down',
        kind: 'offline',
        threshold: null,
        minutes: 20,
        class_id: null,
        ipp_id: null,
        enabled: true,
        renotify_minutes: 60,
        severity: 'major',
        for_minutes: 0,
        clear_threshold: null,
        no_data: 'keep',
        series: null,
        comparison: null,
        threshold_low: null,
        notify_webhook: true,
        notify_user_ids: null,
        escalate_minutes: 0,
        escalate_user_ids: [],
        escalate_webhook: false,
      }),
    );
  });

  it('lets an administrator weigh a rule, give it a duration, a clear level and a no-data action (issue 40)', async () => {
    signIn('administrator');
    const fetchMock = server('administrator', {
      '/api/alarm/list': () =>
        pageEnvelope(
          [
            { ...ALARM, state: 'pending', value: null },
            { ...ALARM, id: 8, severity: 'minor' },
          ],
          2,
        ),
      '/api/alarm/rules': () => okEnvelope([{ ...RULE, for_minutes: 10, clear_threshold: 75, no_data: 'raise' }]),
    });
    renderRoutes(appRouteObjects, ['/alarms']);
    const user = userEvent.setup();
    expect((await screen.findByTestId('alarm-severity-7')).textContent).toBe('Critical');
    expect(screen.getByTestId('alarm-severity-8').textContent).toBe('Minor');
    expect(screen.getByTestId('alarm-state-7').textContent).toBe('Pending');
    expect(within(screen.getByTestId('alarm-table')).getByText('no data')).toBeTruthy();
    // Nothing to acknowledge while pending.
    expect(screen.queryByTestId('alarm-ack-7')).toBeNull();
    expect(screen.getByTestId('alarm-ack-8')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('alarm-bell').getAttribute('data-heaviest')).toBe('critical'));

    await user.click(await screen.findByRole('tab', { name: 'Rules' }));
    const rules = await screen.findByTestId('alarm-rule-table');
    expect(await within(rules).findByText('after 10 min · clears at 75 % or under · no data: Raise the alarm')).toBeTruthy();
    await user.click(await screen.findByTestId('alarm-rule-add'));
    await user.type(await screen.findByTestId('alarm-rule-name'), 'Leak slow');
    await pickOption('alarm-rule-kind', 'Internal humidity high');
    await user.type(await screen.findByTestId('alarm-rule-threshold'), '80');
    await user.type(screen.getByTestId('alarm-rule-clear'), '85');
    await user.click(screen.getByTestId('alarm-rule-submit'));
    expect(await screen.findByText('The clear level must not be above the limit')).toBeTruthy();
    await user.clear(screen.getByTestId('alarm-rule-clear'));
    await user.type(screen.getByTestId('alarm-rule-clear'), '75');
    await user.clear(screen.getByTestId('alarm-rule-for'));
    await user.type(screen.getByTestId('alarm-rule-for'), '10');
    await pickOption('alarm-rule-severity', 'Major');
    await pickOption('alarm-rule-no-data', 'Clear the alarm');
    await user.click(screen.getByTestId('alarm-rule-submit'));
    await waitFor(() =>
      expect(lastBody(fetchMock, '/api/alarm/save-rule')).toMatchObject({
        name: 'Leak slow',
        kind: 'humidity_high',
        threshold: 80,
        severity: 'major',
        for_minutes: 10,
        clear_threshold: 75,
        no_data: 'clear',
      }),
    );
  });

  it('opens an alarm: its thread, a comment added, and a clear by hand with a reason for administrators (issue 40)', async () => {
    signIn('administrator');
    const fetchMock = server('administrator');
    renderRoutes(appRouteObjects, ['/alarms']);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('alarm-open-7'));
    const drawer = await screen.findByTestId('alarm-drawer');
    expect(await within(drawer).findByText('diver booked')).toBeTruthy();
    await user.type(within(drawer).getByTestId('alarm-comment-text'), 'spare housing in the van');
    await user.click(within(drawer).getByTestId('alarm-comment-add'));
    await waitFor(() => expect(lastBody(fetchMock, '/api/alarm/comment')).toEqual({ id: 7, text: 'spare housing in the van' }));
    await user.click(within(drawer).getByTestId('alarm-clear'));
    // The reason is required: the button waits for it.
    const submit = await screen.findByTestId('alarm-clear-submit');
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByTestId('alarm-clear-reason'), 'sensor replaced');
    await user.click(submit);
    await waitFor(() => expect(lastBody(fetchMock, '/api/alarm/clear')).toEqual({ id: 7, reason: 'sensor replaced' }));
  });

  it('shows who cleared an alarm by hand and why; a user cannot clear', async () => {
    signIn('user');
    server('user', {
      '/api/alarm/list': () =>
        pageEnvelope(
          [{ ...ALARM, state: 'cleared', cleared_at: 2, cleared_by_name: 'admin_a', clear_reason: 'sensor replaced' }],
          1,
        ),
    });
    renderRoutes(appRouteObjects, ['/alarms']);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('alarm-open-7'));
    const drawer = await screen.findByTestId('alarm-drawer');
    expect(within(drawer).getByTestId('alarm-clear-reason-shown').textContent).toBe('sensor replaced');
    expect(within(drawer).getByText(/by admin_a, by hand/)).toBeTruthy();
    expect(within(drawer).queryByTestId('alarm-clear')).toBeNull();
  });

  it('sends a test notice to the webhook and a test e-mail, and says how each went', async () => {
    signIn('administrator');
    server('administrator', {
      '/api/alarm/webhook': () => okEnvelope({ ...NO_WEBHOOK, url: 'https://example.org/hook', secret_hint: '…abcd' }),
    });
    renderRoutes(appRouteObjects, ['/alarms']);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Rules' }));
    await user.click(await screen.findByTestId('alarm-webhook-test'));
    expect((await screen.findByTestId('alarm-webhook-test-result')).textContent).toContain(
      'The test notice was not delivered: no answer in time',
    );
    await user.click(await screen.findByTestId('alarm-email-test'));
    expect((await screen.findByTestId('alarm-email-test-result')).textContent).toContain(
      'A test e-mail was sent to me@example.org',
    );
  });

  it('lists silences, ends one, silences an alarm from its drawer for a chosen time with a reason (issue 40)', async () => {
    signIn('user');
    const fetchMock = server('user', {
      '/api/alarm/list': () => pageEnvelope([{ ...ALARM, silenced: true }], 1),
    });
    renderRoutes(appRouteObjects, ['/alarms']);
    const user = userEvent.setup();
    expect((await screen.findByTestId('alarm-silenced-7')).textContent).toBe('Silenced');
    await user.click(screen.getByTestId('alarm-open-7'));
    await user.click(await screen.findByTestId('alarm-silence-this'));
    await pickOption('alarm-silence-duration', '4 h');
    await user.type(await screen.findByTestId('alarm-silence-reason'), 'diver on site');
    const before = Date.now();
    await user.click(screen.getByTestId('alarm-silence-submit'));
    await waitFor(() => expect(lastBody(fetchMock, '/api/alarm/save-silence')).toBeDefined());
    const sent = lastBody(fetchMock, '/api/alarm/save-silence') as { ends_at: number };
    expect(sent).toMatchObject({ ipp_id: 2, rule_id: 3, reason: 'diver on site' });
    expect(sent.ends_at - before).toBeGreaterThanOrEqual(4 * 3_600_000 - 1000);
    expect(sent.ends_at - before).toBeLessThanOrEqual(4 * 3_600_000 + 60_000);

    await user.click(await screen.findByRole('tab', { name: 'Silences' }));
    const table = await screen.findByTestId('alarm-silence-table');
    expect(await within(table).findByText('diver maintenance')).toBeTruthy();
    await user.click(within(table).getByTestId('alarm-silence-end-5'));
    await user.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(lastBody(fetchMock, '/api/alarm/end-silence')).toEqual({ id: 5 }));
  });

  it('lets an administrator add a biology rule: a class above a concentration over whole hours', async () => {
    signIn('administrator');
    const bloom: AlarmRule = {
      ...RULE,
      id: 5,
      name: 'Bloom',
      kind: 'class_concentration',
      threshold: 20,
      minutes: 180,
      class_id: 3,
      class_name: '003 Dinoflagellate',
    };
    const fetchMock = server('administrator', {
      '/api/alarm/rules': () => okEnvelope([RULE, bloom]),
      '/api/alarm/list': () =>
        pageEnvelope(
          [
            {
              ...ALARM,
              kind: 'class_concentration',
              threshold: 20,
              minutes: 180,
              class_id: 3,
              class_name: '003 Dinoflagellate',
              value: 26.4,
            },
          ],
          1,
        ),
      '/api/tool/sys-init': () =>
        okEnvelope(
          [1, 3].map((id) => ({
            id,
            title: id === 1 ? '001 Copepod' : '003 Dinoflagellate',
            label_index: id,
            system: false,
            visible: true,
            attention: false,
            owner: 'shared',
            editable: true,
            taxon: null,
          })),
        ),
    });
    renderRoutes(appRouteObjects, ['/alarms']);
    const user = userEvent.setup();
    expect(await screen.findByText('003 Dinoflagellate above 20 ind/L over 3 h')).toBeTruthy();
    expect(screen.getByText('26.4 ind/L')).toBeTruthy();
    await user.click(await screen.findByRole('tab', { name: 'Rules' }));
    const rules = await screen.findByTestId('alarm-rule-table');
    expect(await within(rules).findByText('003 Dinoflagellate above 20 ind/L over 3 h')).toBeTruthy();
    await user.click(await screen.findByTestId('alarm-rule-add'));
    await user.type(await screen.findByTestId('alarm-rule-name'), 'Bloom');
    await pickOption('alarm-rule-kind', 'Class concentration high');
    // The window starts at one hour (the offline default of 15 minutes would be refused).
    await waitFor(() => expect((screen.getByTestId('alarm-rule-minutes') as HTMLInputElement).value).toBe('60'));
    await user.click(screen.getByTestId('alarm-rule-submit'));
    expect(await screen.findByText('Please choose a class')).toBeTruthy();
    await pickOption('alarm-rule-class', '003 Dinoflagellate');
    await user.type(screen.getByTestId('alarm-rule-threshold'), '20');
    await user.click(screen.getByTestId('alarm-rule-submit'));
    await waitFor(() =>
      expect(lastBody(fetchMock, '/api/alarm/save-rule')).toEqual({
        name: 'Bloom',
        kind: 'class_concentration',
        threshold: 20,
        minutes: 60,
        class_id: 3,
        ipp_id: null,
        enabled: true,
        renotify_minutes: 60,
        severity: 'major',
        for_minutes: 0,
        clear_threshold: null,
        no_data: 'keep',
        series: null,
        comparison: null,
        threshold_low: null,
        notify_webhook: true,
        notify_user_ids: null,
        escalate_minutes: 0,
        escalate_user_ids: [],
        escalate_webhook: false,
      }),
    );
  });

  it('lets the superadmin pick the team whose rules and webhook it edits, and saves the new rule in that team', async () => {
    signIn('superadmin');
    const fetchMock = server('administrator', {
      '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role: 'superadmin', group_id: null }),
      '/api/group/index': () =>
        pageEnvelope(
          [1, 2].map((id) => ({
            id,
            name: id === 1 ? 'Qingdao' : 'Alaska',
            admin_account: null,
            admin_name: null,
            superadmin_count: 0,
            admin_count: 1,
            user_count: 2,
            created_at: id,
          })),
          2,
        ),
    });
    renderRoutes(appRouteObjects, ['/alarms']);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Rules' }));
    await waitFor(() => expect(callsTo(fetchMock, '/api/alarm/rules').at(-1)?.url.searchParams.get('group_id')).toBe('1'));
    await pickOption('alarm-team', 'Alaska');
    await waitFor(() => expect(callsTo(fetchMock, '/api/alarm/rules').at(-1)?.url.searchParams.get('group_id')).toBe('2'));
    await waitFor(() => expect(callsTo(fetchMock, '/api/alarm/webhook').at(-1)?.url.searchParams.get('group_id')).toBe('2'));
    await user.click(screen.getByTestId('alarm-rule-add'));
    await user.type(await screen.findByTestId('alarm-rule-name'), 'Down');
    await user.click(screen.getByTestId('alarm-rule-submit'));
    await waitFor(() => expect(lastBody(fetchMock, '/api/alarm/save-rule')).toMatchObject({ group_id: 2, name: 'Down' }));
  });
});

describe('an alarm linked by id (e-mails, the header, the overview)', () => {
  it('opens the drawer of an alarm on the list', async () => {
    signIn('user');
    const fetchMock = server('user');
    const { router } = renderRoutes(appRouteObjects, ['/alarms?alarm=7']);
    const user = userEvent.setup();
    const drawer = await screen.findByTestId('alarm-drawer');
    expect(within(drawer).getByText('Leak · Daya Bay')).toBeTruthy();
    expect(callsTo(fetchMock, '/api/alarm/list').map((c) => c.url.searchParams.get('state'))).toEqual(['open']);
    // Closing it leaves the link: a reload does not open it again.
    await user.click(within(drawer.closest('.ant-drawer')!).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('asks the server for an alarm that is not on the page, in any state, and shows it', async () => {
    signIn('user');
    const cleared = alarmFixture({
      id: 9,
      rule_name: 'Station down',
      kind: 'offline',
      threshold: null,
      minutes: 60,
      value: 41_193,
      state: 'cleared',
      cleared_at: Date.UTC(2026, 10, 28),
    });
    const fetchMock = server('user', {
      '/api/alarm/list': (url) => (url.searchParams.get('id') === '9' ? pageEnvelope([cleared], 1) : pageEnvelope([ALARM], 1)),
    });
    renderRoutes(appRouteObjects, ['/alarms?alarm=9']);
    const drawer = await screen.findByTestId('alarm-drawer');
    expect(within(drawer).getByText('Station down · Daya Bay')).toBeTruthy();
    expect(within(drawer).getAllByText('Cleared').length).toBeGreaterThan(0);
    expect(within(drawer).getByText('28 d 14 h')).toBeTruthy();
    // Asked by its id, in any state.
    const asked = callsTo(fetchMock, '/api/alarm/list').find((c) => c.url.searchParams.get('id') === '9');
    expect(asked?.url.searchParams.get('state')).toBe('all');
  });

  it('says so when the alarm is not found, and forgets the link', async () => {
    signIn('user');
    const fetchMock = server('user', {
      '/api/alarm/list': (url) => (url.searchParams.has('id') ? pageEnvelope([], 0) : pageEnvelope([ALARM], 1)),
    });
    const { router } = renderRoutes(appRouteObjects, ['/alarms?alarm=99']);
    expect(await screen.findByText(/The linked alarm was not found/)).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.queryByTestId('alarm-drawer')).toBeNull();
    // One question by id, not a search through pages of history.
    expect(callsTo(fetchMock, '/api/alarm/list').filter((c) => c.url.searchParams.has('id'))).toHaveLength(1);
  });

  it('brings the alarm list forward when a link arrives while the rules are shown', async () => {
    signIn('user');
    server('user');
    const { router } = renderRoutes(appRouteObjects, ['/alarms']);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Rules' }));
    await screen.findByTestId('alarm-rule-table');
    await router.navigate('/alarms?alarm=7');
    expect(await screen.findByTestId('alarm-drawer')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Alarms' }).getAttribute('aria-selected')).toBe('true');
  });
});

describe('alarm times', () => {
  it("show the viewer's clock, and on hover the station's own clock with its zone, and UTC", async () => {
    signIn('user');
    server('user', {
      '/api/alarm/list': () =>
        pageEnvelope([ALARM, alarmFixture({ id: 8, dev_id: '21006', site_name: 'Fjord', time_zone: 'Etc/GMT-1' })], 2),
    });
    renderRoutes(appRouteObjects, ['/alarms']);
    const user = userEvent.setup();
    const raised = await screen.findByTestId('alarm-raised-7');
    expect(raised.textContent).toContain(formatTime(ALARM.raised_at));
    await user.hover(raised);
    expect(await screen.findByText('Station time: 2026-11-27 09:00:00 UTC+8 (Asia/Shanghai)')).toBeTruthy();
    expect(screen.getByText('UTC: 2026-11-27 01:00:00')).toBeTruthy();
    await user.unhover(raised);
    // A zone worked out from the longitude is said to be so, not named "Etc/GMT-1".
    await user.hover(screen.getByTestId('alarm-raised-8'));
    expect(await screen.findByText('Station time: 2026-11-27 02:00:00 UTC+1 (from its longitude)')).toBeTruthy();

    await user.click(screen.getByTestId('alarm-open-7'));
    const drawer = await screen.findByTestId('alarm-drawer');
    await user.hover(within(drawer).getByTestId('alarm-drawer-raised'));
    await waitFor(() =>
      expect(screen.getAllByText('Station time: 2026-11-27 09:00:00 UTC+8 (Asia/Shanghai)').length).toBeGreaterThan(0),
    );
  });
});

describe('alarm history export', () => {
  const originalCreateObjectURL = URL.createObjectURL;
  const originalRevokeObjectURL = URL.revokeObjectURL;
  afterEach(() => {
    URL.createObjectURL = originalCreateObjectURL;
    URL.revokeObjectURL = originalRevokeObjectURL;
  });

  function saveSpy() {
    const saved: { name: string; blob: Blob }[] = [];
    let last: Blob | null = null;
    URL.createObjectURL = vi.fn((blob: Blob) => {
      last = blob;
      return 'blob:csv';
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      if (last) saved.push({ name: this.download, blob: last });
    });
    return saved;
  }

  const STATIONS = { '/api/ipp/index': () => pageEnvelope([ippFixture({ id: 2, dev_id: '21001', site_name: 'Daya Bay' })], 1) };

  it('downloads the last 30 days by default, of one station when picked, under the name the server gives', async () => {
    signIn('user');
    const csv = '\uFEFFid,raised_utc\n7,2026-11-27 01:00:00\n';
    const fetchMock = server('user', {
      ...STATIONS,
      '/api/alarm/export': () =>
        new Response(csv, {
          headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="alarms.csv"' },
        }),
    });
    const saved = saveSpy();
    renderRoutes(appRouteObjects, ['/alarms']);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('alarm-export'));
    const dialog = (await screen.findByText('Export alarm history')).closest<HTMLElement>('.ant-modal')!;
    const [from, to] = dialog.querySelectorAll<HTMLInputElement>('.ant-picker-range input');
    const today = dayjs().startOf('day');
    expect([from?.value, to?.value]).toEqual([today.subtract(29, 'day').format('YYYY-MM-DD'), today.format('YYYY-MM-DD')]);
    await pickOption('alarm-export-station', 'Daya Bay (21001)');
    await user.click(screen.getByTestId('alarm-export-submit'));
    await waitFor(() => expect(saved.map((s) => s.name)).toEqual(['alarms.csv']));
    const query = callsTo(fetchMock, '/api/alarm/export')[0]?.url.searchParams;
    expect(Object.fromEntries(query ?? [])).toEqual({
      from: String(today.subtract(29, 'day').valueOf()),
      to: String(today.add(1, 'day').valueOf()),
      ipp_id: '2',
    });
    // Saved byte for byte, its BOM (for spreadsheet programs) kept.
    const bytes = await saved[0]!.blob.arrayBuffer();
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe(csv);
    expect(await screen.findByText('Alarm history downloaded')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Export alarm history')).toBeNull());
  });

  it('refuses a period over 366 days or none before asking, and shows what the server refuses in the language in use', async () => {
    await setLanguage('zh');
    signIn('user');
    const fetchMock = server('user', {
      ...STATIONS,
      '/api/alarm/export': () => failField(1002, '结束时间必须晚于开始时间', 400, 'to'),
    });
    renderRoutes(appRouteObjects, ['/alarms']);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('alarm-export'));
    const dialog = (await screen.findByText('导出告警历史', { selector: '.ant-modal-title' })).closest<HTMLElement>(
      '.ant-modal',
    )!;
    typeRange(dialog, '2025-01-01', '2026-01-02');
    await user.click(screen.getByTestId('alarm-export-submit'));
    expect(await within(dialog).findByText('时间范围最长 366 天')).toBeTruthy();
    expect(callsTo(fetchMock, '/api/alarm/export')).toHaveLength(0);

    typeRange(dialog, '2025-01-02', '2026-01-02');
    await user.click(screen.getByTestId('alarm-export-submit'));
    expect(await within(dialog).findByText('结束时间必须晚于开始时间')).toBeTruthy();
    const query = callsTo(fetchMock, '/api/alarm/export')[0]?.url.searchParams;
    expect([query?.get('from'), query?.get('to'), query?.has('ipp_id')]).toEqual([
      String(dayjs('2025-01-02').valueOf()),
      String(dayjs('2026-01-03').valueOf()),
      false,
    ]);
  });
});
