import type { Action } from '@ipp/contracts';
import { fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '@/i18n';
import { ActionBar } from './action-bar';

const action = (code: string, over: Partial<Action> = {}): Action => ({
  code,
  target: 'none',
  confirm: false,
  danger: false,
  no_ai: false,
  single: false,
  ...over,
});

/** The -100 answer for an administrator, plus a code this build has no label for. */
const SITE: Action[] = [
  action('51', { target: 'folder', confirm: true }),
  action('61'),
  action('23', { target: 'class', confirm: true, no_ai: true }),
  action('13', { confirm: true, no_ai: true }),
  action('B002', { single: true, danger: true }),
  action('Z999'),
];

const buttons = () => screen.queryAllByRole('button').map((button) => button.getAttribute('data-testid'));

beforeEach(async () => {
  await setLanguage('zh');
});

describe('bulk action bar', () => {
  it('draws one labelled button per code, leaves single-ROI codes to the detail pane, and names unknown codes', () => {
    render(<ActionBar actions={SITE} reason={null} selectedCount={2} selectionHasAi={false} onRun={() => undefined} />);
    expect(buttons()).toEqual(['action-51', 'action-61', 'action-23', 'action-13', 'action-Z999']);
    expect(screen.getByTestId('action-51').textContent).toBe('复制到文件夹');
    expect(screen.getByTestId('action-23').textContent).toBe('移动到 HI 类别');
    expect(screen.getByTestId('action-Z999').textContent).toBe('权限码未配置');
  });

  it('hides the actions refused for AI-labelled ROIs while one is selected', () => {
    render(<ActionBar actions={SITE} reason={null} selectedCount={2} selectionHasAi onRun={() => undefined} />);
    expect(buttons()).toEqual(['action-51', 'action-61', 'action-Z999']);
  });

  it('runs the clicked action, and offers nothing until something is selected', () => {
    const onRun = vi.fn();
    const { rerender } = render(
      <ActionBar actions={SITE} reason={null} selectedCount={0} selectionHasAi={false} onRun={onRun} />,
    );
    expect((screen.getByTestId('action-61') as HTMLButtonElement).disabled).toBe(true);
    rerender(<ActionBar actions={SITE} reason={null} selectedCount={1} selectionHasAi={false} onRun={onRun} />);
    fireEvent.click(screen.getByTestId('action-61'));
    expect(onRun).toHaveBeenCalledWith(SITE[1]);
  });

  it('offers nothing while demo images are selected in the team gallery (spec §6), and says why', () => {
    render(
      <ActionBar actions={SITE} reason={null} selectedCount={1} selectionHasAi={false} selectionLocked onRun={() => undefined} />,
    );
    expect(buttons()).toEqual([]);
    expect(screen.getByTestId('identify-actions-demo').textContent).toBe('演示图像不支持此操作：请选择其他图像');
  });

  it('says example ROIs support no operation, in English too', async () => {
    await setLanguage('en');
    render(<ActionBar actions={[]} reason="example" selectedCount={1} selectionHasAi={false} onRun={() => undefined} />);
    expect(screen.getByTestId('identify-actions-example').textContent).toContain('Operation not supported for Example ROIs');
    expect(buttons()).toEqual([]);
  });
});
