import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, configure, fireEvent, render, waitFor, within } from '@testing-library/react';
import { ApiError, type SpendView, type TeamView } from '../api/client';
import { NO_LIMITS } from '../limits';
import { teamSpend } from '../spend';
import { language } from '../test-setup';
import { TeamsPage, deleteRefusal, teamBody } from './Teams';

// antd renders in jsdom take seconds on a loaded 2-core machine: wait for conditions up to 15 s
configure({ asyncUtilTimeout: 15_000 });
vi.setConfig({ testTimeout: 90_000 });

afterEach(() => {
  vi.unstubAllGlobals();
  teamSpend.invalidate();
});

function team(overrides: Partial<TeamView> = {}): TeamView {
  return {
    id: 'research',
    name: 'Research',
    limits: { rpm_limit: 60, tpm_limit: null, max_parallel_requests: 4, max_budget: 5, budget_duration: '1d' },
    weight: 3,
    key_count: 2,
    created_at: '2026-12-01T00:00:00Z',
    updated_at: '2026-12-01T00:00:00Z',
    version: 1,
    ...overrides,
  };
}

function spend(overrides: Partial<SpendView> = {}): SpendView {
  return {
    spend_usd: 1.2,
    max_budget: 5,
    budget_duration: '1d',
    budget_window_start: '2026-12-01T00:00:00Z',
    budget_reset_at: '2026-12-02T00:00:00Z',
    requests: 7,
    input_tokens: 100,
    output_tokens: 50,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    cache_write_5m_tokens: 0,
    cache_write_1h_tokens: 0,
    reasoning_tokens: 0,
    by_model: [
      { model: 'gpt-5.6-sol', spend_usd: 1.0, requests: 5 },
      { model: 'glm-5.3', spend_usd: 0.2, requests: 2 },
    ],
    ...overrides,
  };
}

type Route = (method: string, url: string, body: unknown) => { status: number; body?: unknown } | undefined;

/** A fetch that answers by method and path and records every call. */
function server(route: Route) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, url, body });
      const answer = route(method, url, body) ?? { status: 404, body: { error: { code: 'not_found', message: 'no', type: 'not_found' } } };
      return answer.status === 204 ? new Response(null, { status: 204 }) : new Response(JSON.stringify(answer.body), { status: answer.status });
    }),
  );
  return calls;
}

const KEYS = [
  { id: 'k1', name: 'notebook', key_prefix: 'rk-abc', enabled: true, team_id: 'research', limits: null, group_ids: [], allowed_models: [], allowed_protocols: [] },
  { id: 'k2', name: 'other', key_prefix: 'rk-def', enabled: true, team_id: null, limits: null, group_ids: [], allowed_models: [], allowed_protocols: [] },
];

function standard(extra: Route = () => undefined): Route {
  return (method, url, body) =>
    extra(method, url, body) ??
    (method === 'GET' && url === '/admin/v1/teams?limit=500'
      ? { status: 200, body: { items: [team()], next_cursor: null } }
      : method === 'GET' && url === '/admin/v1/access-keys'
        ? { status: 200, body: KEYS }
        : method === 'GET' && url === '/admin/v1/teams/research/spend'
          ? { status: 200, body: spend() }
          : undefined);
}

describe('the team list', () => {
  it('shows limits, weight, key count, spend against the budget with its bar, reset time and headroom', async () => {
    await language('en');
    server(standard());
    const view = render(<TeamsPage />);
    const row = await waitFor(() => {
      const found = view.container.querySelector('tr[data-team-id=research]');
      expect(found).not.toBeNull();
      return found as HTMLElement;
    });
    expect(within(row).getByTestId('team-limits').textContent).toBe('60 rpm · 4 parallel · $5.00 / 1 day');
    expect(within(row).getByTestId('team-weight').textContent).toBe('3');
    expect(within(row).getByTestId('team-key-count').textContent).toBe('2');
    await waitFor(() => expect(within(row).getByTestId('spend-text').textContent).toBe('$1.20 / $5.00'));
    expect(within(row).getByTestId('spend-reset').textContent).toContain('resets');
    expect(within(row).getByTestId('headroom').textContent).toBe('$3.80');
    expect(row.querySelector('.ant-progress')).not.toBeNull();
    view.unmount();
  });

  it('reads a paged list ({items, next_cursor}) to its end', async () => {
    await language('zh');
    server(
      standard((method, url) =>
        method === 'GET' && url === '/admin/v1/teams?limit=500'
          ? { status: 200, body: { items: [team()], next_cursor: 'c2' } }
          : method === 'GET' && url === '/admin/v1/teams?limit=500&cursor=c2'
            ? { status: 200, body: { items: [team({ id: 'ops', name: 'Ops', limits: null, key_count: 0 })], next_cursor: null } }
            : method === 'GET' && url === '/admin/v1/teams/ops/spend'
              ? { status: 200, body: spend({ spend_usd: 0, max_budget: null, budget_duration: null, budget_reset_at: null, by_model: [] }) }
              : undefined,
      ),
    );
    const view = render(<TeamsPage />);
    const ops = await waitFor(() => {
      const found = view.container.querySelector('tr[data-team-id=ops]');
      expect(found).not.toBeNull();
      return found as HTMLElement;
    });
    expect(within(ops).getByTestId('team-limits').textContent).toBe('不限');
    await waitFor(() => expect(within(ops).getByTestId('headroom').textContent).toBe('不限'));
    expect(within(ops).getByTestId('spend-reset').textContent).toBe('无预算：显示本自然月');
    view.unmount();
  });
});

describe('creating and editing a team', () => {
  it('sends the name, weight and all five limits, a field left empty as null', async () => {
    await language('en');
    const calls = server(standard((method, url) => (method === 'POST' && url === '/admin/v1/teams' ? { status: 201, body: team() } : undefined)));
    const view = render(<TeamsPage />);
    await waitFor(() => expect(view.container.querySelector('tr[data-team-id=research]')).not.toBeNull());
    fireEvent.click(view.getByTestId('team-create'));
    await waitFor(() => expect(document.getElementById('team-name')).not.toBeNull());
    fireEvent.change(document.getElementById('team-name')!, { target: { value: 'Platform' } });
    fireEvent.change(document.getElementById('team-rpm_limit')!, { target: { value: '120' } });
    fireEvent.change(document.getElementById('team-max_budget')!, { target: { value: '25.5' } });
    fireEvent.click(document.getElementById('team-save')!);
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      name: 'Platform',
      weight: 1,
      limits: { ...NO_LIMITS, rpm_limit: 120, max_budget: 25.5 },
    });
    view.unmount();
  });

  it('refuses a budget window without a budget before asking the API', async () => {
    await language('en');
    const calls = server(standard());
    const view = render(<TeamsPage />);
    await waitFor(() => expect(view.container.querySelector('tr[data-team-id=research]')).not.toBeNull());
    fireEvent.click(within(view.container.querySelector('tr[data-team-id=research]') as HTMLElement).getByTestId('team-edit'));
    await waitFor(() => expect((document.getElementById('team-max_budget') as HTMLInputElement).value).toBe('5'));
    fireEvent.change(document.getElementById('team-max_budget')!, { target: { value: '' } });
    expect((document.getElementById('team-max_budget') as HTMLInputElement).value).toBe('');
    fireEvent.click(document.getElementById('team-save')!);
    const duration = document.getElementById('team-budget_duration')!.closest('.ant-form-item')!;
    await waitFor(() => expect(duration.textContent).toContain('A budget window needs a budget'));
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    view.unmount();
  });

  it("shows the API's validation.limits under the field its message names", async () => {
    await language('zh');
    const calls = server(
      standard((method) =>
        method === 'PATCH'
          ? { status: 400, body: { error: { code: 'validation.limits', message: 'tpm_limit must be a whole number 1..1000000000000 or null', type: 'invalid_request' } } }
          : undefined,
      ),
    );
    const view = render(<TeamsPage />);
    await waitFor(() => expect(view.container.querySelector('tr[data-team-id=research]')).not.toBeNull());
    fireEvent.click(within(view.container.querySelector('tr[data-team-id=research]') as HTMLElement).getByTestId('team-edit'));
    await waitFor(() => expect((document.getElementById('team-rpm_limit') as HTMLInputElement).value).toBe('60'));
    fireEvent.click(document.getElementById('team-save')!);
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH' && c.url === '/admin/v1/teams/research')).toBe(true));
    const patch = calls.find((c) => c.method === 'PATCH')!;
    expect(patch.body).toEqual({ name: 'Research', weight: 3, limits: team().limits });
    const field = document.getElementById('team-tpm_limit')!.closest('.ant-form-item')!;
    await waitFor(() => expect(field.textContent).toContain('validation.limits: tpm_limit must be'));
    expect(view.getByTestId('team-form-error').textContent).toContain('validation.limits');
    view.unmount();
  });
});

describe('deleting a team', () => {
  it('says why when the team still owns keys (409 team.has_keys), and deletes nothing', async () => {
    await language('zh');
    const calls = server(
      standard((method, url) =>
        method === 'DELETE' && url === '/admin/v1/teams/research'
          ? { status: 409, body: { error: { code: 'team.has_keys', message: 'team research still owns 2 access keys', type: 'conflict' } } }
          : undefined,
      ),
    );
    const view = render(<TeamsPage />);
    await waitFor(() => expect(view.container.querySelector('tr[data-team-id=research]')).not.toBeNull());
    fireEvent.click(within(view.container.querySelector('tr[data-team-id=research]') as HTMLElement).getByTestId('team-delete'));
    await act(async () => {
      fireEvent.click(await view.findByTestId('team-delete-confirm'));
    });
    const refusal = await view.findByTestId('team-delete-error');
    expect(refusal.textContent).toBe(
      '无法删除团队“Research”：还有 2 个 AccessKey 属于它（team.has_keys）。请先把这些 Key 移到其他团队或删除。',
    );
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
    expect(view.container.querySelector('tr[data-team-id=research]')).not.toBeNull();
    view.unmount();
  });

  it('names the reason in English too, and passes other refusals on with their code', async () => {
    const en = await language('en');
    const refused = new ApiError(409, 'team.has_keys', 'raw server text', 'conflict');
    expect(deleteRefusal(refused, { name: 'Ops', key_count: 1 }, en)).toBe(
      'Team "Ops" cannot be deleted: 1 AccessKey still belongs to it (team.has_keys). Move it to another team or delete it first.',
    );
    expect(deleteRefusal(new ApiError(404, 'not_found', 'no such team'), { name: 'Ops', key_count: 0 }, en)).toBe('not_found: no such team');
  });
});

describe('the team detail', () => {
  it("lists the team's keys and its spend by model", async () => {
    await language('en');
    server(standard());
    const view = render(<TeamsPage />);
    const row = await waitFor(() => {
      const found = view.container.querySelector('tr[data-team-id=research]');
      expect(found).not.toBeNull();
      return found as HTMLElement;
    });
    fireEvent.click(within(row).getByTestId('team-open'));
    const keys = await view.findByTestId('team-detail-keys');
    expect(keys.querySelector('tr[data-key-id=k1]')).not.toBeNull();
    expect(keys.querySelector('tr[data-key-id=k2]')).toBeNull();
    await waitFor(() => expect(document.querySelector('[data-testid=team-spend-chart]')).not.toBeNull());
    const models = [...document.querySelectorAll('tr[data-model]')].map((tr) => tr.getAttribute('data-model'));
    expect(models).toEqual(['gpt-5.6-sol', 'glm-5.3']);
    expect(document.querySelector('tr[data-model="gpt-5.6-sol"]')!.textContent).toContain('$1.00');
    view.unmount();
  });
});

describe('the team body', () => {
  it('carries the id only on create', () => {
    expect(teamBody({ id: 'ops', name: 'Ops', weight: 2, limits: {} }, true)).toEqual({ id: 'ops', name: 'Ops', weight: 2, limits: NO_LIMITS });
    expect(teamBody({ id: 'ops', name: 'Ops', weight: null, limits: {} }, false)).toEqual({ name: 'Ops', weight: 1, limits: NO_LIMITS });
  });
});
