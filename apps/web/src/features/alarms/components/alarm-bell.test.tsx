import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '@/i18n';
import { alarmFixture, alarmSummaryFixture } from '@/test/alarm-fixtures';
import { callsTo, lastBody, mockServer, pageEnvelope, signIn, type Handler } from '@/test/mock-server';
import { okEnvelope, renderRoutes } from '@/test/render';
import AlarmBell from './alarm-bell';

const HOUR = 3_600_000;

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function renderBell() {
  return renderRoutes(
    [
      { path: '/', element: <AlarmBell /> },
      { path: '/alarms', element: <Where /> },
    ],
    ['/'],
  );
}

function server(routes: Record<string, Handler>) {
  signIn('user');
  return mockServer(routes);
}

beforeEach(async () => {
  await setLanguage('en');
});

describe('the header bell', () => {
  it('opens on a click with the latest open alarms, heaviest first, and acknowledges one with a note', async () => {
    const now = Date.now();
    let acknowledged = false;
    const leak = alarmFixture({ raised_at: now - 3 * HOUR - 60_000 });
    const offline = alarmFixture({
      id: 8,
      kind: 'offline',
      severity: 'major',
      rule_name: 'Station down',
      threshold: null,
      minutes: 60,
      value: 41_193,
      site_name: 'Fjord',
      dev_id: '21006',
      raised_at: now - 5 * 60_000,
      silenced: true,
    });
    const pending = alarmFixture({ id: 9, severity: 'warning', state: 'pending', value: null, raised_at: now - 2 * 86_400_000 });
    const fetchMock = server({
      '/api/alarm/summary': () =>
        okEnvelope(
          acknowledged
            ? alarmSummaryFixture({ major: 1 }, { acknowledged: 1, pending: 1 })
            : alarmSummaryFixture({ critical: 1, major: 1 }, { pending: 1 }),
        ),
      '/api/alarm/list': () =>
        pageEnvelope(acknowledged ? [{ ...leak, state: 'acknowledged' }, offline, pending] : [leak, offline, pending], 9),
      '/api/alarm/acknowledge': () => {
        acknowledged = true;
        return okEnvelope({ ok: true });
      },
    });
    renderBell();
    const user = userEvent.setup();
    const bell = await screen.findByTestId('alarm-bell');
    await waitFor(() => expect(bell.getAttribute('data-heaviest')).toBe('critical'));
    expect(bell.getAttribute('data-active')).toBe('2');
    // Nothing is asked for until the drop-down opens.
    expect(callsTo(fetchMock, '/api/alarm/list')).toHaveLength(0);
    expect(bell.getAttribute('aria-expanded')).toBe('false');

    await user.click(bell);
    const panel = await screen.findByTestId('alarm-bell-panel');
    expect(bell.getAttribute('aria-expanded')).toBe('true');
    await within(panel).findByTestId('alarm-bell-list');
    const query = callsTo(fetchMock, '/api/alarm/list')[0]?.url.searchParams;
    expect([query?.get('state'), query?.get('limit')]).toEqual(['open', '6']);
    expect(within(panel).getByTestId('alarm-bell-counts').textContent).toBe('2 active · 0 acknowledged · 1 pending');
    expect(within(panel).getByText('3 of 9 shown')).toBeTruthy();

    const rows = within(panel).getAllByRole('listitem');
    expect(rows.map((row) => row.dataset.testid)).toEqual(['alarm-bell-list-7', 'alarm-bell-list-8', 'alarm-bell-list-9']);
    expect(rows[0]?.textContent).toContain('Critical');
    expect(rows[0]?.textContent).toContain('Daya Bay (21001)');
    expect(rows[0]?.textContent).toContain('Internal humidity above 80 % · reading 91.2 %');
    expect(rows[0]?.textContent).toContain('3 h ago');
    // An offline alarm's reading is a duration in days and hours, not minutes (issue 37).
    expect(rows[1]?.textContent).toContain('reading 28 d 14 h');
    expect(rows[1]?.textContent).toContain('5 min ago');
    expect(within(rows[1]!).getByTestId('alarm-bell-list-silenced-8').textContent).toBe('Silenced');
    expect(within(rows[0]!).queryByTestId('alarm-bell-list-silenced-7')).toBeNull();
    expect(rows[2]?.textContent).toContain('Pending');
    expect(rows[2]?.textContent).toContain('2 d ago');
    // Only an active alarm is acknowledged; a pending one is not yet.
    expect(within(rows[2]!).queryByRole('button')).toBeNull();

    await user.click(within(rows[0]!).getByRole('button', { name: 'Acknowledge', description: 'Daya Bay (21001) Leak' }));
    await waitFor(() => expect(screen.queryByTestId('alarm-bell-panel')).toBeNull());
    await user.type(await screen.findByTestId('alarm-ack-note'), 'diver sent');
    const summaries = callsTo(fetchMock, '/api/alarm/summary').length;
    await user.click(screen.getByTestId('alarm-ack-submit'));
    await waitFor(() => expect(lastBody(fetchMock, '/api/alarm/acknowledge')).toEqual({ id: 7, note: 'diver sent' }));
    // The bell counts again: the heaviest active one is now the major one.
    await waitFor(() => expect(bell.getAttribute('data-heaviest')).toBe('major'));
    expect(callsTo(fetchMock, '/api/alarm/summary').length).toBeGreaterThan(summaries);
    expect(bell.getAttribute('data-active')).toBe('1');

    await user.click(bell);
    const again = await screen.findByTestId('alarm-bell-panel');
    await waitFor(() => expect(within(again).getByTestId('alarm-bell-list-7').textContent).toContain('Acknowledged'));
    expect(within(again).queryByTestId('alarm-bell-ack-7')).toBeNull();
  });

  it('is used from the keyboard: focus moves into it, Escape closes it and gives the focus back', async () => {
    server({
      '/api/alarm/summary': () => okEnvelope(alarmSummaryFixture({ minor: 1 })),
      '/api/alarm/list': () => pageEnvelope([alarmFixture({ severity: 'minor' })], 1),
    });
    renderBell();
    const user = userEvent.setup();
    const bell = await screen.findByTestId('alarm-bell');
    await waitFor(() => expect(bell.getAttribute('aria-label')).toContain('1 active'));
    bell.focus();
    await user.keyboard('{Enter}');
    const panel = await screen.findByTestId('alarm-bell-panel');
    await waitFor(() => expect(document.activeElement).toBe(panel));
    expect(panel.getAttribute('role')).toBe('dialog');
    expect(document.getElementById(panel.getAttribute('aria-labelledby') ?? '')?.textContent).toBe('Open alarms');
    await within(panel).findByTestId('alarm-bell-list');
    await user.tab();
    expect(document.activeElement).toBe(within(panel).getByTestId('alarm-bell-list-link-7'));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(bell.getAttribute('aria-expanded')).toBe('false'));
    expect(document.activeElement).toBe(bell);
  });

  it('opens an alarm on /alarms and lists them all from its footer', async () => {
    server({
      '/api/alarm/summary': () => okEnvelope(alarmSummaryFixture({ critical: 1 })),
      '/api/alarm/list': () => pageEnvelope([alarmFixture()], 1),
    });
    const { router } = renderBell();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('alarm-bell'));
    const link = await screen.findByTestId('alarm-bell-list-link-7');
    expect(link.textContent).toBe('Daya Bay (21001) Leak');
    expect(link.getAttribute('href')).toBe('/alarms?alarm=7');
    await user.click(link);
    expect((await screen.findByTestId('where')).textContent).toBe('/alarms?alarm=7');
    await waitFor(() => expect(screen.queryByTestId('alarm-bell-panel')).toBeNull());

    await router.navigate('/');
    await user.click(await screen.findByTestId('alarm-bell'));
    await user.click(await screen.findByTestId('alarm-bell-all'));
    expect((await screen.findByTestId('where')).textContent).toBe('/alarms');
  });

  it('says when nothing is open, in Chinese by default', async () => {
    await setLanguage('zh');
    server({ '/api/alarm/list': () => pageEnvelope([], 0) });
    renderBell();
    const user = userEvent.setup();
    const bell = await screen.findByTestId('alarm-bell');
    expect(bell.getAttribute('data-heaviest')).toBe('');
    await user.click(bell);
    const empty = await screen.findByTestId('alarm-bell-empty');
    expect(within(empty).getByText('没有未解除的告警')).toBeTruthy();
    expect(screen.queryByTestId('alarm-bell-list')).toBeNull();
    expect(screen.getByTestId('alarm-bell-all').textContent).toBe('全部告警');
  });

  it('shows that it is loading until the list arrives', async () => {
    let answer: (response: Response) => void = () => undefined;
    server({ '/api/alarm/list': () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderBell();
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('alarm-bell'));
    const panel = await screen.findByTestId('alarm-bell-panel');
    await waitFor(() => expect(panel.querySelector('.ant-spin')).not.toBeNull());
    answer(pageEnvelope([alarmFixture()], 1));
    await within(panel).findByTestId('alarm-bell-list');
    expect(panel.querySelector('.ant-spin')).toBeNull();
  });
});
