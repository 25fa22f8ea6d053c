import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, waitFor, within } from '@testing-library/react';
import type { KeyWithLimits, SpendView } from '../api/client';
import { NO_LIMITS } from '../limits';
import { keySpend } from '../spend';
import { language } from '../test-setup';
import { AccessKeysPage, KEY_PAGE_SIZE, keyFieldsForCode, newestFirst, teamAndLimitsBody } from './AccessKeys';

// antd renders in jsdom take seconds on a loaded 2-core machine: wait for conditions up to 15 s
configure({ asyncUtilTimeout: 15_000 });
vi.setConfig({ testTimeout: 90_000 });

afterEach(() => {
  vi.unstubAllGlobals();
  keySpend.invalidate();
});

function key(n: number, overrides: Partial<KeyWithLimits> = {}): KeyWithLimits {
  return {
    id: `k${n}`,
    name: `key ${n}`,
    key_prefix: `rk-${n}`,
    enabled: true,
    expires_at: null,
    expired: false,
    allowed_protocols: [],
    allowed_models: [],
    group_ids: [],
    version: 1,
    created_at: '2026-12-01T00:00:00Z',
    updated_at: '2026-12-01T00:00:00Z',
    team_id: null,
    limits: null,
    ...overrides,
  } as KeyWithLimits;
}

function spend(usd: number, budget: number | null): SpendView {
  return {
    spend_usd: usd,
    max_budget: budget,
    budget_duration: budget === null ? null : '1mo',
    budget_window_start: '2026-12-01T00:00:00Z',
    budget_reset_at: budget === null ? null : '2027-01-01T00:00:00Z',
    requests: 3,
    input_tokens: 10,
    output_tokens: 10,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    cache_write_5m_tokens: 0,
    cache_write_1h_tokens: 0,
    reasoning_tokens: 0,
    by_model: [],
  };
}

// k1 is the newest key; the API answers oldest first, as it stores them
const MANY = Array.from({ length: 45 }, (_, i) => {
  const createdAt = new Date(Date.UTC(2026, 11, 1) - i * 60_000).toISOString();
  return key(
    i + 1,
    i === 0
      ? { created_at: createdAt, team_id: 'research', limits: { ...NO_LIMITS, rpm_limit: 30, max_budget: 2, budget_duration: '1mo' } }
      : { created_at: createdAt },
  );
}).reverse();

function server() {
  const calls: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      calls.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      let body: unknown = null;
      if (url === '/admin/v1/access-keys') body = MANY;
      else if (url === '/admin/v1/groups') body = [];
      else if (url === '/admin/v1/teams?limit=500') body = [{ id: 'research', name: 'Research', limits: null, weight: 1, key_count: 1 }];
      else if (url === '/admin/v1/access-keys/k1/spend') body = spend(0.5, 2);
      else if (/\/access-keys\/k\d+\/spend$/.test(url)) body = spend(0.1, null);
      else return new Response(JSON.stringify({ error: { code: 'not_found', message: 'no' } }), { status: 404 });
      return new Response(JSON.stringify(body), { status: 200 });
    }),
  );
  return calls;
}

const spendCalls = (calls: { url: string }[]) => calls.filter((c) => c.url.endsWith('/spend')).map((c) => c.url);

describe('the key list', () => {
  it("shows each key's team, limits and spend, asking spend only for the rows on the page", async () => {
    await language('en');
    const calls = server();
    const view = render(<AccessKeysPage />);
    const first = await waitFor(() => {
      const row = view.container.querySelector('tr[data-key-id=k1]');
      expect(row).not.toBeNull();
      return row as HTMLElement;
    });
    await waitFor(() => expect(within(first).getByTestId('spend-text').textContent).toBe('$0.5000 / $2.00'));
    expect(within(first).getByTestId('key-team').textContent).toBe('Research');
    expect(within(first).getByTestId('key-limits').textContent).toBe('30 rpm · $2.00 / 1 calendar month');
    await waitFor(() => expect(spendCalls(calls)).toHaveLength(KEY_PAGE_SIZE));
    expect(spendCalls(calls)).toEqual(Array.from({ length: KEY_PAGE_SIZE }, (_, i) => `/admin/v1/access-keys/k${i + 1}/spend`));

    // the list polls again (every 5 s): fresh answers are not asked again
    await waitFor(() => expect(calls.filter((c) => c.url === '/admin/v1/access-keys').length).toBeGreaterThanOrEqual(2));
    expect(spendCalls(calls)).toHaveLength(KEY_PAGE_SIZE);

    // the next page asks for its own rows only
    fireEvent.click(view.container.querySelector('.ant-pagination-item-2')!);
    await waitFor(() => expect(view.container.querySelector('tr[data-key-id=k21]')).not.toBeNull());
    await waitFor(() => expect(spendCalls(calls)).toHaveLength(2 * KEY_PAGE_SIZE));
    expect(spendCalls(calls).slice(KEY_PAGE_SIZE)).toEqual(
      Array.from({ length: KEY_PAGE_SIZE }, (_, i) => `/admin/v1/access-keys/k${KEY_PAGE_SIZE + i + 1}/spend`),
    );
    view.unmount();
  });
});

describe('the key order', () => {
  it('puts the newest key first, so a key just created is on page one', () => {
    const older = key(1, { created_at: '2026-11-01T00:00:00Z' });
    const newer = key(2, { created_at: '2026-12-01T00:00:00Z' });
    const sameTimeB = key(4, { id: 'b', created_at: '2026-10-01T00:00:00Z' });
    const sameTimeA = key(3, { id: 'a', created_at: '2026-10-01T00:00:00Z' });
    expect(newestFirst([older, sameTimeB, newer, sameTimeA]).map((k) => k.id)).toEqual(['k2', 'k1', 'a', 'b']);
  });
});

describe('the key body', () => {
  it('on create carries the team and limits only when set', () => {
    expect(teamAndLimitsBody({ team_id: null, limits: {} }, null)).toEqual({});
    expect(teamAndLimitsBody({ team_id: 'research', limits: { rpm_limit: 10 } }, null)).toEqual({
      team_id: 'research',
      limits: { ...NO_LIMITS, rpm_limit: 10 },
    });
  });

  it('on edit carries what changed: a cleared team as null, limits with every field', () => {
    const before = key(1, { team_id: 'research', limits: { ...NO_LIMITS, rpm_limit: 10 } });
    expect(teamAndLimitsBody({ team_id: 'research', limits: { rpm_limit: 10 } }, before)).toEqual({});
    expect(teamAndLimitsBody({ team_id: undefined, limits: { rpm_limit: 10 } }, before)).toEqual({ team_id: null });
    expect(teamAndLimitsBody({ team_id: 'ops', limits: { rpm_limit: null } }, before)).toEqual({ team_id: 'ops', limits: NO_LIMITS });
    // a key from a service without teams (no team_id, no limits) and an untouched form: nothing sent
    expect(teamAndLimitsBody({ team_id: null, limits: NO_LIMITS }, key(2, { team_id: undefined, limits: undefined }))).toEqual({});
  });

  it('places validation.team_id on the team select and validation.limits on its field', () => {
    expect(keyFieldsForCode('validation.team_id', 'no team nope')).toEqual(['team_id']);
    expect(keyFieldsForCode('validation.limits', 'max_budget must be 0..1000000000 USD')).toEqual([['limits', 'max_budget']]);
    expect(keyFieldsForCode('validation.protocol', 'x')).toEqual(['allowed_protocols']);
    expect(keyFieldsForCode('team.has_keys', 'x')).toEqual([]);
  });
});
