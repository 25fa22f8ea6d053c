import { lazy, type ComponentType } from 'react';

/**
 * A page loaded on first use (its own chunk). After an upgrade, an open console asks for chunks of
 * the bundle it was loaded with, which the new build no longer has: the import fails, and the page
 * reloads once to the new index.html (never cached) instead of going blank. A second failure within
 * a minute is not retried (the import is refused for another reason): the error reaches the page's
 * error boundary, which offers a reload.
 */
export const RELOAD_MARK = 'console.chunk-reload-at';
const RETRY_WINDOW_MS = 60_000;

export interface ReloadEnvironment {
  now(): number;
  read(): string | null;
  write(value: string): void;
  reload(): void;
}

const browserEnvironment: ReloadEnvironment = {
  now: () => Date.now(),
  read: () => {
    try {
      return sessionStorage.getItem(RELOAD_MARK);
    } catch {
      return null;
    }
  },
  write: (value) => {
    try {
      sessionStorage.setItem(RELOAD_MARK, value);
    } catch {
      // without storage a reload could loop: the caller then reports the failure instead
    }
  },
  reload: () => window.location.reload(),
};

/** Whether a failed chunk load should reload the page now (and marks that it did). */
export function reloadForNewBundle(environment: ReloadEnvironment = browserEnvironment): boolean {
  const last = Number(environment.read() ?? '0');
  const now = environment.now();
  if (Number.isFinite(last) && now - last < RETRY_WINDOW_MS) return false;
  environment.write(String(now));
  if (environment.read() !== String(now)) return false;
  environment.reload();
  return true;
}

export function lazyPage<P extends object>(
  load: () => Promise<ComponentType<P>>,
  environment: ReloadEnvironment = browserEnvironment,
) {
  return lazy(async () => {
    try {
      return { default: await load() };
    } catch (error) {
      if (reloadForNewBundle(environment)) {
        // the page is going away: never settle, so nothing renders in between
        return new Promise<{ default: ComponentType<P> }>(() => {});
      }
      throw error;
    }
  });
}
