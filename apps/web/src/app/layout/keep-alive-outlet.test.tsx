import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Link, useMatches } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '@/test/render';
import { KeepAliveOutlet } from './keep-alive-outlet';

let mounts: Record<string, number> = {};

function Page({ name }: { name: string }) {
  const [text, setText] = useState('');
  // Runs once per component instance: a remount would count again.
  useState(() => {
    mounts[name] = (mounts[name] ?? 0) + 1;
  });
  return <input aria-label={name} value={text} onChange={(event) => setText(event.target.value)} />;
}

function Shell() {
  const handle = useMatches().at(-1)?.handle as { path: string; keepAlive?: boolean } | undefined;
  const kept = new Map([['/kept', <Page key="kept" name="kept" />]]);
  return (
    <>
      <Link to="/kept">to kept</Link>
      <Link to="/plain">to plain</Link>
      <KeepAliveOutlet activeKeptPath={handle?.keepAlive ? handle.path : null} kept={kept} />
    </>
  );
}

const routes = [
  {
    element: <Shell />,
    children: [
      { path: '/kept', handle: { path: '/kept', keepAlive: true }, element: null },
      { path: '/plain', handle: { path: '/plain' }, element: <Page name="plain" /> },
    ],
  },
];

describe('KeepAliveOutlet', () => {
  it('keeps a keep-alive page and its input while another page is shown', async () => {
    mounts = {};
    const user = userEvent.setup();
    renderRoutes(routes, ['/kept']);
    await user.type(screen.getByLabelText('kept'), 'sample A');

    await user.click(screen.getByText('to plain'));
    expect(screen.getByLabelText('plain')).toBeTruthy();
    const hidden = screen.getByLabelText('kept', { selector: 'input' }) as HTMLInputElement;
    expect(hidden.closest('[style*="display: none"]')).not.toBeNull();

    await user.click(screen.getByText('to kept'));
    expect((screen.getByLabelText('kept') as HTMLInputElement).value).toBe('sample A');
    expect(screen.queryByLabelText('plain')).toBeNull();
    expect(mounts.kept).toBe(1);
  });

  it('renders other pages afresh on every visit', async () => {
    mounts = {};
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, ['/plain']);
    await user.type(screen.getByLabelText('plain'), 'draft');
    await act(() => router.navigate('/kept'));
    await act(() => router.navigate('/plain'));
    expect((screen.getByLabelText('plain') as HTMLInputElement).value).toBe('');
  });
});
