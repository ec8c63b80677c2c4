/**
 * How the transport reports to the UI without importing it: the app layer installs a notifier
 * that shows antd messages and navigates; tests install spies.
 */
export interface ApiNotifier {
  /** Show an error toast; calls with the same key replace each other instead of stacking. */
  error(message: string, key?: string): void;
  /** The session was dropped (code 1010): go to the sign-in page. */
  signedOut(): void;
}

const silentNotifier: ApiNotifier = { error: () => undefined, signedOut: () => undefined };
let current: ApiNotifier = silentNotifier;

export function getApiNotifier(): ApiNotifier {
  return current;
}

/** Installs a notifier; returns a function that removes it again. */
export function setApiNotifier(next: ApiNotifier): () => void {
  current = next;
  return () => {
    if (current === next) current = silentNotifier;
  };
}
