import { pageHidden } from './hooks';
import { useEffect, useReducer } from 'react';
import { api, type SpendView } from './api/client';

export interface SpendEntry {
  value?: SpendView;
  failed?: boolean;
  fetchedAt: number;
}

/**
 * Spend views fetched lazily and boundedly: only for the subjects asked for (the rows on screen), at
 * most `concurrency` requests at once, each answer kept `ttlMs` before it is asked again. A new
 * `want` replaces the queue, so rows scrolled or paged away are never fetched; polling the list does
 * not refetch what is fresh.
 */
export class SpendCache {
  private readonly entries = new Map<string, SpendEntry>();
  private readonly inFlight = new Set<string>();
  private queue: string[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly fetcher: (id: string) => Promise<SpendView>,
    private readonly ttlMs = 30_000,
    private readonly concurrency = 4,
    private readonly clock: () => number = Date.now,
  ) {}

  get(id: string): SpendEntry | undefined {
    return this.entries.get(id);
  }

  /** Queues the ids whose answer is missing or stale (and not already on its way); drops earlier wishes. */
  want(ids: readonly string[]) {
    const now = this.clock();
    this.queue = [...new Set(ids)].filter((id) => {
      if (this.inFlight.has(id)) return false;
      const entry = this.entries.get(id);
      return !entry || now - entry.fetchedAt >= this.ttlMs;
    });
    this.pump();
  }

  /** Forgets one answer (after an edit) or all of them. */
  invalidate(id?: string) {
    if (id === undefined) this.entries.clear();
    else this.entries.delete(id);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private pump() {
    while (this.inFlight.size < this.concurrency && this.queue.length > 0) {
      const id = this.queue.shift()!;
      this.inFlight.add(id);
      this.fetcher(id)
        .then(
          (value) => this.entries.set(id, { value, fetchedAt: this.clock() }),
          // kept as failed (shown as —) until the TTL passes: a subject without spend, or a
          // service without the endpoint, is not asked again on every poll
          () => this.entries.set(id, { failed: true, fetchedAt: this.clock() }),
        )
        .finally(() => {
          this.inFlight.delete(id);
          this.listeners.forEach((listener) => listener());
          this.pump();
        });
    }
  }
}

export const keySpend = new SpendCache((id) => api<SpendView>('GET', `/access-keys/${encodeURIComponent(id)}/spend`));
export const teamSpend = new SpendCache((id) => api<SpendView>('GET', `/teams/${encodeURIComponent(id)}/spend`));

/**
 * The spend of the given subjects (the visible rows), asked for now and again every `refreshMs`
 * while they stay on screen; re-renders as answers arrive.
 */
export function useSpend(cache: SpendCache, ids: readonly string[], refreshMs = 30_000): (id: string) => SpendEntry | undefined {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => cache.subscribe(rerender), [cache]);
  const joined = ids.join('\n');
  useEffect(() => {
    const wanted = joined ? joined.split('\n') : [];
    cache.want(wanted);
    if (refreshMs <= 0) return undefined;
    const timer = setInterval(() => {
      if (!pageHidden()) cache.want(wanted);
    }, refreshMs);
    return () => clearInterval(timer);
  }, [cache, joined, refreshMs]);
  return (id) => cache.get(id);
}
