import { useCallback, useEffect, useRef, useState } from 'react';

/** Whether the page is hidden (a background tab): polling waits until it is shown again. */
export function pageHidden(): boolean {
  return typeof document !== 'undefined' && document.visibilityState === 'hidden';
}

/**
 * Re-runs `load` every `intervalMs` while mounted (live state without a reload); keeps the last good
 * value. While the tab is hidden nothing is fetched; showing it again fetches at once.
 */
export function usePolling<T>(load: () => Promise<T>, intervalMs = 3000, deps: unknown[] = []) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<Error | undefined>(undefined);
  const [receivedAt, setReceivedAt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const reload = useCallback(async () => {
    try {
      const value = await loadRef.current();
      setData(value);
      setReceivedAt(Date.now());
      setError(undefined);
    } catch (e) {
      setError(e as Error);
    }
  }, []);
  useEffect(() => {
    void reload();
    if (intervalMs <= 0) return undefined;
    const timer = setInterval(() => {
      if (!pageHidden()) void reload();
    }, intervalMs);
    const onVisibility = () => {
      if (!pageHidden()) void reload();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reload, intervalMs, ...deps]);
  return { data, error, reload, receivedAt };
}

/** The current time, ticking every second, for countdowns. */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
