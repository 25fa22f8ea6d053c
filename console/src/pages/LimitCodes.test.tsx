import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, waitFor } from '@testing-library/react';
import { language } from '../test-setup';
import { CredentialDrawer } from './CredentialDrawer';
import { LogReason } from './RequestLogs';
import { AdmissionCard, ReasonTag, explainCode } from './RouteCheck';
import type { AdmissionCheck } from '../api/client';

// antd renders in jsdom take seconds on a loaded 2-core machine: wait for conditions up to 15 s
configure({ asyncUtilTimeout: 15_000 });
vi.setConfig({ testTimeout: 90_000 });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('limit codes in request logs and route check', () => {
  it('marks a refusal by limits in the request log, in both languages', async () => {
    await language('zh');
    const zh = render(<LogReason code="budget_exceeded" />);
    expect(zh.getByTestId('log-reason').textContent).toBe('被限额拒绝: budget_exceeded');
    zh.unmount();
    await language('en');
    const en = render(<LogReason code="rate_limit_exceeded" />);
    expect(en.getByTestId('log-reason').textContent).toBe('refused by limits: rate_limit_exceeded');
    en.unmount();
    const other = render(<LogReason code="no_available_credential" />);
    expect(other.getByTestId('log-reason').textContent).toBe('no_available_credential');
    other.unmount();
  });

  it("shows route check's credential_full as a skip at the credential's own limits", async () => {
    await language('zh');
    const view = render(<ReasonTag code="credential_full" />);
    expect(view.getByTestId('trace-reason').textContent).toBe('credential_full');
    expect(view.getByTestId('trace-limit-skipped').textContent).toBe('已达凭证限额，跳过');
    view.unmount();
    const cooling = render(<ReasonTag code="credential_cooldown" />);
    expect(cooling.queryByTestId('trace-limit-skipped')).toBeNull();
    cooling.unmount();
  });

  it("explains a budget verdict in the console's language, the spec's codes with the server's text", () => {
    const refused = { reason_code: 'budget_exceeded', meaning: 'server English', how_to_handle: 'server how' };
    expect(explainCode(refused, 'zh').meaning).toContain('max_budget');
    expect(explainCode(refused, 'zh').meaning).toMatch(/预算/);
    expect(explainCode(refused, 'en').meaning).toContain('budget window');
    const spec = { reason_code: 'credential_cooldown', meaning: 'server meaning', how_to_handle: 'server how' };
    expect(explainCode(spec, 'zh')).toEqual({ meaning: 'server meaning', howToHandle: 'server how' });
    expect(explainCode({ reason_code: 'credential_cooldown', meaning: null, how_to_handle: null }, 'zh').meaning).toBe('Credential is in cooldown');
  });
});

describe("route check's admission part", () => {
  const limits = (rpm: number | null, budget: number | null) => ({
    rpm_limit: rpm,
    tpm_limit: null,
    max_parallel_requests: null,
    max_budget: budget,
    budget_duration: budget === null ? null : ('1d' as const),
  });
  const refused: AdmissionCheck = {
    team_id: 'research',
    team_name: 'Research',
    key_limits: limits(30, 2),
    team_limits: limits(60, 5),
    effective_limits: limits(30, 2),
    budgets: [
      { subject: 'key', subject_id: 'k1', max_budget: 2, budget_duration: '1d', spend_usd: 0.5, budget_window_start: null, budget_reset_at: '2026-12-02T00:00:00Z', exceeded: false },
      { subject: 'team', subject_id: 'research', max_budget: 5, budget_duration: '1d', spend_usd: 5.2, budget_window_start: null, budget_reset_at: '2026-12-02T00:00:00Z', exceeded: true },
    ],
    decision: 'refused',
    reason_code: 'budget_exceeded',
    budget_reset_at: '2026-12-02T00:00:00Z',
    note: 'server note',
  };

  it('shows a budget verdict: refused with budget_exceeded, the spent budget marked, in Chinese', async () => {
    await language('zh');
    const view = render(<AdmissionCard admission={refused} />);
    expect(view.getByTestId('admission-decision').textContent).toBe('拒绝');
    expect(view.getByTestId('trace-reason').textContent).toBe('budget_exceeded');
    const team = view.container.querySelector('tr[data-budget=team]')!;
    expect(team.textContent).toContain('团队');
    expect(team.querySelector('[data-testid=budget-spend]')!.textContent).toBe('$5.20 / $5.00');
    expect(team.querySelector('[data-testid=budget-exceeded]')!.textContent).toBe('已用尽');
    expect(view.container.querySelector('tr[data-budget=key] [data-testid=budget-exceeded]')).toBeNull();
    // the effective limits are rpm / tpm / parallel only: budgets are checked apart
    expect(view.getByTestId('admission-effective').textContent).toBe('30 rpm');
    view.unmount();
  });

  it('says when a key is not limited at all, in English', async () => {
    await language('en');
    const view = render(
      <AdmissionCard
        admission={{ ...refused, team_id: null, team_name: null, team_limits: null, key_limits: null, effective_limits: null, budgets: [], decision: 'not_limited', reason_code: null, budget_reset_at: null }}
      />,
    );
    expect(view.getByTestId('admission-decision').textContent).toBe('not limited (admission skipped)');
    expect(view.getByTestId('admission-effective').textContent).toBe('unlimited');
    expect(view.queryByTestId('trace-reason')).toBeNull();
    view.unmount();
  });
});

describe("a credential's own limits", () => {
  function server(limits: unknown) {
    const calls: { method: string; url: string; body: unknown }[] = [];
    const credential = {
      id: 'c1',
      name: 'relay',
      platform: 'openai',
      kind: 'api',
      base_url: 'https://relay.test',
      has_secret: true,
      model_mappings: [],
      failure_policy: { retry_count: 2, retry_interval_ms: 200, semantic_error_threshold: 10, cooldown_enabled: true, cooldown_seconds: 10, error_status_enabled: true },
      recovery: { mode: 'off' },
      config_json_valid: true,
      enabled: true,
      archived: false,
      in_pool: true,
      priority: 0,
      weight_mode: 'auto',
      weight: 100,
      quota_remaining: null,
      group_ids: [],
      status: 'ok',
      account: { transient_failure_count: 0 },
      oauth: null,
      limits,
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const method = init.method ?? 'GET';
        calls.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined });
        if (url === '/admin/v1/credentials/c1') return new Response(JSON.stringify(credential), { status: 200 });
        if (url.endsWith('/models')) return new Response('[]', { status: 200 });
        return new Response(JSON.stringify({ items: [], next_cursor: null }), { status: 200 });
      }),
    );
    return calls;
  }

  it('shows them, and sends them (a cleared field as null) only when changed', async () => {
    await language('en');
    const calls = server({ rpm_limit: 60, max_parallel_requests: 4 });
    const view = render(<CredentialDrawer credentialId="c1" groups={[]} onClose={() => {}} onChanged={() => {}} />);
    await waitFor(() => expect((document.getElementById('credential-rpm_limit') as HTMLInputElement).value).toBe('60'));
    expect((document.getElementById('credential-max_parallel_requests') as HTMLInputElement).value).toBe('4');
    expect(view.getByTestId('credential-limits').textContent).toContain('credential_full');

    fireEvent.click(view.getByTestId('credential-save'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PATCH')!.body).not.toHaveProperty('limits');

    await waitFor(() => expect((document.getElementById('credential-rpm_limit') as HTMLInputElement).value).toBe('60'));
    fireEvent.change(document.getElementById('credential-rpm_limit')!, { target: { value: '' } });
    fireEvent.click(view.getByTestId('credential-save'));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(2));
    expect((calls.filter((c) => c.method === 'PATCH')[1].body as Record<string, unknown>).limits).toEqual({
      rpm_limit: null,
      max_parallel_requests: 4,
    });
    view.unmount();
  });
});
