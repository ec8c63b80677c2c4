import { TREND_SERIES } from '@ipp/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '@/i18n';
import en from '@/i18n/en.json';
import { lastBody, mockServer, pageEnvelope, signIn, USER_INFO, type FetchMock } from '@/test/mock-server';
import { ruleFixture } from '@/test/alarm-fixtures';
import { okEnvelope, renderRoutes } from '@/test/render';
import { openSelect, pickOption } from '@/test/select';
import { RuleFormModal } from './rule-form-modal';

/** Issue 40, item 3: a rule on any telemetry series, the series listed from the contract. */
describe('alarm rule form: series rules', () => {
  let fetchMock: FetchMock;
  const onClose = vi.fn();
  beforeEach(async () => {
    await setLanguage('en');
    signIn('administrator');
    onClose.mockReset();
    fetchMock = mockServer({
      '/api/wyrbac/login/user-info': () => okEnvelope({ ...USER_INFO, role: 'administrator', group_id: 1 }),
      '/api/ipp/index': () => pageEnvelope([], 0),
      '/api/user/index': () =>
        pageEnvelope(
          [
            {
              id: 21,
              account: 'li.wei',
              name: 'Li Wei',
              phone: '',
              email: 'li@example.org',
              group_id: 1,
              group_name: 'Bay team',
              role: 'user',
              demo: false,
              created_at: 1,
            },
          ],
          1,
        ),
      '/api/alarm/save-rule': (_url, init) =>
        okEnvelope(ruleFixture({ id: 9, notify_user_ids: null, ...(JSON.parse(String(init?.body)) as object) })),
    });
    renderRoutes([{ path: '/', element: <RuleFormModal rule={null} onClose={onClose} /> }]);
  });

  const start = async (name: string) => {
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('alarm-rule-name'), name);
    await pickOption('alarm-rule-kind', 'Telemetry series');
    await screen.findByTestId('alarm-rule-series');
    return user;
  };

  it('lists every series under its group, and asks for a band’s two bounds in the series’ unit, low under high', async () => {
    const user = await start('Duty band');
    const shown = (await openSelect('alarm-rule-series')).map((o) => o.textContent);
    // Every series the contract lists, by its name.
    for (const series of TREND_SERIES) expect(shown).toContain(en.measured.label[series]);
    await pickOption('alarm-rule-series', 'Illuminator duty cycle (measured)');
    await pickOption('alarm-rule-comparison', 'Outside a band');
    expect(await screen.findByText('Lower bound (%)')).toBeTruthy();
    expect(screen.getByText('Upper bound (%)')).toBeTruthy();
    // No clear level for a band.
    expect(screen.queryByTestId('alarm-rule-clear')).toBeNull();
    await user.type(screen.getByTestId('alarm-rule-threshold-low'), '90');
    await user.type(screen.getByTestId('alarm-rule-threshold'), '80');
    await user.click(screen.getByTestId('alarm-rule-submit'));
    expect(await screen.findByText('Must be below the upper bound')).toBeTruthy();
    await user.clear(screen.getByTestId('alarm-rule-threshold-low'));
    await user.type(screen.getByTestId('alarm-rule-threshold-low'), '20');
    await user.click(screen.getByTestId('alarm-rule-submit'));
    await waitFor(() =>
      expect(lastBody(fetchMock, '/api/alarm/save-rule')).toMatchObject({
        name: 'Duty band',
        kind: 'series',
        series: 'uvc_illuminator_duty_pct',
        comparison: 'outside',
        threshold: 80,
        threshold_low: 20,
        minutes: null,
        clear_threshold: null,
        severity: 'minor',
      }),
    );
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('asks a rate rule for its window and a change above zero, and an above rule for a clear level', async () => {
    const user = await start('Board heat');
    await pickOption('alarm-rule-series', 'Low-power board temperature');
    await pickOption('alarm-rule-comparison', 'Changes faster than');
    expect(await screen.findByText('Largest change within the window (°C)')).toBeTruthy();
    await user.type(screen.getByTestId('alarm-rule-threshold'), '0');
    // The window starts from the form's default duration.
    await user.clear(screen.getByTestId('alarm-rule-minutes'));
    await user.type(screen.getByTestId('alarm-rule-minutes'), '10');
    await user.click(screen.getByTestId('alarm-rule-submit'));
    expect(await screen.findByText('Must be above 0')).toBeTruthy();
    await user.clear(screen.getByTestId('alarm-rule-threshold'));
    await user.type(screen.getByTestId('alarm-rule-threshold'), '5');
    await user.click(screen.getByTestId('alarm-rule-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    await waitFor(() =>
      expect(lastBody(fetchMock, '/api/alarm/save-rule')).toMatchObject({
        series: 'lp_temperature_c',
        comparison: 'rate',
        threshold: 5,
        minutes: 10,
        threshold_low: null,
      }),
    );

    await pickOption('alarm-rule-comparison', 'Above a limit');
    await waitFor(() => expect(screen.queryByTestId('alarm-rule-minutes')).toBeNull());
    expect(screen.getByTestId('alarm-rule-clear')).toBeTruthy();
  });
  it('routes a rule to named people, off the webhook, and asks an escalation for someone to escalate to', async () => {
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('alarm-rule-name'), 'Leak');
    await pickOption('alarm-rule-notify-people', 'Li Wei');
    await user.click(screen.getByTestId('alarm-rule-notify-webhook'));
    await user.clear(screen.getByTestId('alarm-rule-escalate-minutes'));
    await user.type(screen.getByTestId('alarm-rule-escalate-minutes'), '15');
    await user.click(screen.getByTestId('alarm-rule-submit'));
    expect(await screen.findByText('Choose someone, or the webhook, to escalate to')).toBeTruthy();
    await user.click(screen.getByTestId('alarm-rule-escalate-webhook'));
    await user.click(screen.getByTestId('alarm-rule-submit'));
    await waitFor(() =>
      expect(lastBody(fetchMock, '/api/alarm/save-rule')).toMatchObject({
        notify_user_ids: [21],
        notify_webhook: false,
        escalate_minutes: 15,
        escalate_user_ids: [],
        escalate_webhook: true,
      }),
    );
  });
});
