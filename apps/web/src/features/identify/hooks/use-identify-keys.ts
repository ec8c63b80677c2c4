import { useEffect, useRef } from 'react';

export interface IdentifyKeys {
  previous?: () => void;
  next?: () => void;
  /** Review queue: A approves the focused ROI, R rejects it. */
  approve?: () => void;
  reject?: () => void;
}

export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** A modal or a drawer (more like this, AI models) over the workspace: its keys are its own. */
function dialogOpen(): boolean {
  return document.querySelector('.ant-modal-wrap:not([style*="display: none"]) .ant-modal, .ant-drawer-open') !== null;
}

/** The workspace's keys anywhere on the page, except while typing, with a modifier held or a dialog or drawer open. */
export function useIdentifyKeys(keys: IdentifyKeys): void {
  const current = useRef(keys);
  useEffect(() => {
    current.current = keys;
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (isTyping(event.target) || dialogOpen()) return;
      const { previous, next, approve, reject } = current.current;
      const key = event.key.toLowerCase();
      const action =
        key === 'arrowleft' ? previous : key === 'arrowright' ? next : key === 'a' ? approve : key === 'r' ? reject : undefined;
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
}
