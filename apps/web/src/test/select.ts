import { fireEvent, screen, waitFor, within } from '@testing-library/react';

/** Opens the antd Select with this test id and returns its option elements once they show. */
export async function openSelect(testId: string): Promise<HTMLElement[]> {
  fireEvent.mouseDown(within(screen.getByTestId(testId)).getByRole('combobox'));
  return waitFor(() => {
    const options = [
      ...document.querySelectorAll<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option'),
    ];
    if (options.length === 0) throw new Error(`no options for ${testId}`);
    return options;
  });
}

/** Picks the option whose text starts with label. */
export async function pickOption(testId: string, label: string): Promise<void> {
  const options = await openSelect(testId);
  const option = options.find((element) => element.textContent?.startsWith(label));
  if (!option) throw new Error(`no option ${label} in ${testId}: ${options.map((o) => o.textContent).join(' | ')}`);
  fireEvent.click(option);
}
