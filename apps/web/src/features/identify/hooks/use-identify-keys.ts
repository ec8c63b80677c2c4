import { useEffect, useRef } from 'react';

/**
 * The workspace's keys (issue 25), by the name `keyName` gives an event: 'arrowleft', 'shift+arrowright',
 * 'mod+a' (Ctrl or ⌘), 'v', '?'. A key left undefined does nothing and is left to the browser.
 */
export type IdentifyKeys = Partial<Record<string, (() => void) | undefined>>;

/** Every key the workspace answers, in the order the help lists them, with its i18n id (identify.keys.*). */
export const KEY_HELP: readonly { keys: readonly string[]; id: string }[] = [
  { keys: ['←', '→'], id: 'move' },
  { keys: ['↑', '↓'], id: 'moveRow' },
  { keys: ['Shift + ←/→/↑/↓'], id: 'extend' },
  { keys: ['Space'], id: 'toggle' },
  { keys: ['Ctrl/⌘ + A'], id: 'selectLoaded' },
  { keys: ['Ctrl/⌘ + Shift + A'], id: 'selectMatching' },
  { keys: ['Esc'], id: 'clear' },
  { keys: ['V'], id: 'validate' },
  { keys: ['C'], id: 'setClass' },
  { keys: ['D'], id: 'dubious' },
  { keys: ['A', 'R'], id: 'review' },
  { keys: ['N'], id: 'nextPage' },
  { keys: ['M'], id: 'similar' },
  { keys: ['Enter'], id: 'openDetail' },
  { keys: ['U', 'Ctrl/⌘ + Z'], id: 'undo' },
  { keys: ['?'], id: 'help' },
];

export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** A modal, a drawer, a popover or an open list over the workspace: its keys are its own. */
function dialogOpen(): boolean {
  if (document.querySelector('.ant-modal-wrap:not([style*="display: none"]) .ant-modal, .ant-drawer-open') !== null) return true;
  // Closed popovers and lists may stay in the page, hidden or in their closing animation: only one shown counts.
  const floating = document.querySelectorAll<HTMLElement>('.ant-popover, .ant-select-dropdown, .ant-picker-dropdown');
  return [...floating].some(
    (el) =>
      !/-hidden\b|-leave\b/.test(el.className) && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden',
  );
}

/** Keys a focused button, link or switch answers itself (outside the grid, whose cells are the workspace's). */
const CONTROL_KEYS = new Set(['enter', 'space']);
function onControl(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('[data-testid="identify-grid"]')) return false;
  return (
    target.closest('button, a, [role="button"], [role="switch"], [role="menuitem"], [role="tab"], [role="checkbox"]') !== null
  );
}

/** Held down, only the arrows repeat: a held V or D would label one image after another. */
const REPEATING = new Set(['arrowleft', 'arrowright', 'arrowup', 'arrowdown'].flatMap((key) => [key, `shift+${key}`]));

/**
 * An event's key name: modifiers first ('mod+' for Ctrl or ⌘, 'shift+' for named keys and letters), then the key in
 * lower case; a printed symbol such as '?' is named as typed, whatever Shift did to type it. Alt never counts.
 */
export function keyName(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>): string | null {
  if (event.altKey) return null;
  const key = event.key === ' ' ? 'space' : event.key.toLowerCase();
  const symbol = key.length === 1 && !/[a-z0-9]/.test(key);
  const mod = event.ctrlKey || event.metaKey ? 'mod+' : '';
  const shift = event.shiftKey && !symbol ? 'shift+' : '';
  return `${mod}${shift}${key}`;
}

/** The workspace's keys anywhere on the page, except while typing or with a dialog or drawer open. */
export function useIdentifyKeys(keys: IdentifyKeys): void {
  const current = useRef(keys);
  useEffect(() => {
    current.current = keys;
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTyping(event.target) || dialogOpen()) return;
      const name = keyName(event);
      if (name === null || (event.repeat && !REPEATING.has(name)) || (CONTROL_KEYS.has(name) && onControl(event.target))) return;
      const action = current.current[name];
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
}
