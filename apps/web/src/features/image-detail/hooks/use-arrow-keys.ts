import { useEffect } from 'react';

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** Left and right arrow keys anywhere on the page, except while typing or with a modifier held. */
export function useArrowKeys(onLeft: (() => void) | null, onRight: (() => void) | null): void {
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (isTyping(event.target)) return;
      const action = event.key === 'ArrowLeft' ? onLeft : event.key === 'ArrowRight' ? onRight : null;
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [onLeft, onRight]);
}
