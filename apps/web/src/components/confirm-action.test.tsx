import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Button } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider, createQueryClient } from '@/app/provider';
import { ConfirmAction } from './confirm-action';

const visibleTooltip = () =>
  [...document.querySelectorAll('.ant-tooltip')].find((el) => !el.className.includes('ant-tooltip-hidden'));

describe('ConfirmAction', () => {
  it("names an icon trigger in a tooltip, and hides it while the confirmation is open (it covered the dialog's OK)", async () => {
    const onConfirm = vi.fn();
    render(
      <AppProvider client={createQueryClient()}>
        <ConfirmAction title="Delete it?" onConfirm={onConfirm} tooltip="Delete">
          <Button aria-label="Delete" data-testid="trigger" />
        </ConfirmAction>
      </AppProvider>,
    );
    fireEvent.mouseEnter(screen.getByTestId('trigger'));
    await waitFor(() => expect(visibleTooltip()?.textContent).toBe('Delete'));
    fireEvent.click(screen.getByTestId('trigger'));
    await screen.findByText('Delete it?');
    await waitFor(() => expect(visibleTooltip()).toBeUndefined());
    fireEvent.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
  });
});
