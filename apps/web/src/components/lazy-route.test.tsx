import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider, createQueryClient } from '@/app/provider';
import { lazyPage } from '@/lib/lazy-with-retry';
import { LazyRoute } from './lazy-route';

function Page({ label }: { label: string }) {
  return <p>{label}</p>;
}

describe('LazyRoute', () => {
  it('shows a Retry result after three failed loads, and the page once a retry succeeds', async () => {
    const load = vi
      .fn<() => Promise<{ default: typeof Page }>>()
      .mockRejectedValueOnce(new Error('chunk 1'))
      .mockRejectedValueOnce(new Error('chunk 2'))
      .mockRejectedValueOnce(new Error('chunk 3'))
      .mockResolvedValue({ default: Page });
    const page = lazyPage(load);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);

    render(
      <AppProvider client={createQueryClient()}>
        <LazyRoute page={page} props={{ label: 'loaded page' }} />
      </AppProvider>,
    );
    expect(await screen.findByTestId('page-load-failed')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(3);

    await userEvent.setup().click(screen.getByTestId('page-retry'));
    expect(await screen.findByText('loaded page')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(4);
  });
});
