import { describe, expect, it } from 'vitest';
import type { SpendView } from './api/client';
import { SpendCache } from './spend';

function spend(usd: number): SpendView {
  return {
    spend_usd: usd,
    max_budget: 10,
    budget_duration: '1d',
    budget_window_start: '2026-12-01T00:00:00Z',
    budget_reset_at: '2026-12-02T00:00:00Z',
    requests: 1,
    input_tokens: 1,
    output_tokens: 1,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    cache_write_5m_tokens: 0,
    cache_write_1h_tokens: 0,
    reasoning_tokens: 0,
    by_model: [],
  };
}

/** A fetcher whose answers the test releases one by one. */
function controlled() {
  const asked: string[] = [];
  const pending = new Map<string, { resolve: (v: SpendView) => void; reject: (e: Error) => void }>();
  const fetcher = (id: string) =>
    new Promise<SpendView>((resolve, reject) => {
      asked.push(id);
      pending.set(id, { resolve, reject });
    });
  const settle = async (id: string, outcome: SpendView | Error) => {
    const waiting = pending.get(id)!;
    pending.delete(id);
    if (outcome instanceof Error) waiting.reject(outcome);
    else waiting.resolve(outcome);
    await new Promise((r) => setTimeout(r, 0));
  };
  return { asked, pending, fetcher, settle };
}

describe('the spend cache', () => {
  it('asks at most `concurrency` at once and only for the ids wanted', async () => {
    const f = controlled();
    const cache = new SpendCache(f.fetcher, 30_000, 2);
    cache.want(['a', 'b', 'c', 'd']);
    expect(f.asked).toEqual(['a', 'b']);
    await f.settle('a', spend(1));
    expect(f.asked).toEqual(['a', 'b', 'c']);
    expect(cache.get('a')?.value?.spend_usd).toBe(1);
  });

  it('drops queued ids that are no longer on screen', async () => {
    const f = controlled();
    const cache = new SpendCache(f.fetcher, 30_000, 1);
    cache.want(['a', 'b', 'c']);
    cache.want(['x', 'y']); // paged on before b and c were asked
    await f.settle('a', spend(1));
    await f.settle('x', spend(2));
    await f.settle('y', spend(3));
    expect(f.asked).toEqual(['a', 'x', 'y']);
  });

  it('keeps an answer until it is stale, and asks again after that', async () => {
    let now = 1_000;
    const f = controlled();
    const cache = new SpendCache(f.fetcher, 30_000, 4, () => now);
    cache.want(['a']);
    await f.settle('a', spend(1));
    cache.want(['a']);
    cache.want(['a']);
    expect(f.asked).toEqual(['a']);
    now += 30_000;
    cache.want(['a']);
    expect(f.asked).toEqual(['a', 'a']);
  });

  it('never asks twice for an id already on its way', () => {
    const f = controlled();
    const cache = new SpendCache(f.fetcher, 30_000, 4);
    cache.want(['a']);
    cache.want(['a', 'b']);
    expect(f.asked).toEqual(['a', 'b']);
  });

  it('remembers a failure until the TTL passes (no request per poll for a key without spend)', async () => {
    let now = 0;
    const f = controlled();
    const cache = new SpendCache(f.fetcher, 30_000, 4, () => now);
    cache.want(['gone']);
    await f.settle('gone', new Error('404'));
    expect(cache.get('gone')?.failed).toBe(true);
    cache.want(['gone']);
    expect(f.asked).toEqual(['gone']);
    now += 30_000;
    cache.want(['gone']);
    expect(f.asked).toEqual(['gone', 'gone']);
  });

  it('tells subscribers when an answer arrives, and forgets on invalidate', async () => {
    const f = controlled();
    const cache = new SpendCache(f.fetcher, 30_000, 4);
    let told = 0;
    const stop = cache.subscribe(() => told++);
    cache.want(['a']);
    await f.settle('a', spend(2));
    expect(told).toBe(1);
    cache.invalidate('a');
    expect(cache.get('a')).toBeUndefined();
    cache.want(['a']);
    expect(f.asked).toEqual(['a', 'a']);
    stop();
    await f.settle('a', spend(2));
    expect(told).toBe(1);
  });
});
