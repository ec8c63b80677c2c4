import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useIdentifyKeys, type IdentifyKeys } from './use-identify-keys';

function Keys({ keys }: { keys: IdentifyKeys }) {
  useIdentifyKeys(keys);
  return (
    <div>
      <button data-testid="button">Undo</button>
      <input data-testid="input" />
      <div data-testid="identify-grid">
        <div role="option" tabIndex={-1} data-testid="cell" />
      </div>
    </div>
  );
}

describe('the workspace keys', () => {
  it('leave Enter and Space to a focused button, typing to inputs, and do not repeat a held action key', () => {
    const enter = vi.fn();
    const space = vi.fn();
    const v = vi.fn();
    const right = vi.fn();
    const view = render(<Keys keys={{ enter, space, v, arrowright: right }} />);
    fireEvent.keyDown(view.getByTestId('button'), { key: 'Enter' });
    fireEvent.keyDown(view.getByTestId('button'), { key: ' ' });
    fireEvent.keyDown(view.getByTestId('input'), { key: 'v' });
    expect([enter, space, v].map((f) => f.mock.calls.length)).toEqual([0, 0, 0]);
    // On a grid cell or the page, they are the workspace's.
    fireEvent.keyDown(view.getByTestId('cell'), { key: 'Enter' });
    fireEvent.keyDown(document.body, { key: ' ' });
    expect([enter, space].map((f) => f.mock.calls.length)).toEqual([1, 1]);
    // Held down: V labels once, the arrow keeps moving.
    fireEvent.keyDown(document.body, { key: 'v' });
    fireEvent.keyDown(document.body, { key: 'v', repeat: true });
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    fireEvent.keyDown(document.body, { key: 'ArrowRight', repeat: true });
    expect([v.mock.calls.length, right.mock.calls.length]).toEqual([1, 2]);
  });
});
