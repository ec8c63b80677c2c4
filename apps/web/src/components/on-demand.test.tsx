import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { onDemand } from './on-demand';

const Plain = ({ text }: { text: string }) => <p>plain {text}</p>;
const Loaded = ({ text }: { text: string }) => <p>loaded {text}</p>;

describe('onDemand', () => {
  it('shows the plain stand-in while the component loads, then the component', async () => {
    let resolve: (module: { default: typeof Loaded }) => void = () => undefined;
    const Component = onDemand(() => new Promise<{ default: typeof Loaded }>((r) => (resolve = r)), Plain);
    render(<Component text="notice" />);
    expect(screen.getByText('plain notice')).toBeTruthy();
    resolve({ default: Loaded });
    expect(await screen.findByText('loaded notice')).toBeTruthy();
    expect(screen.queryByText('plain notice')).toBeNull();
  });

  it('keeps the plain stand-in when the component cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failed = Promise.reject<{ default: typeof Loaded }>(new Error('offline'));
    const Component = onDemand(() => failed, Plain);
    render(<Component text="notice" />);
    // Once React has seen the load fail (without a boundary that would take the whole page down), the text is still there.
    await act(() => failed.catch(() => undefined));
    expect(screen.getByText('plain notice')).toBeTruthy();
  });
});
