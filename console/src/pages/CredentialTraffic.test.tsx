import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, render, waitFor, within } from '@testing-library/react';
import { latencyText, successRateText, type CredentialTrafficEntry } from '../credentialTraffic';
import { language } from '../test-setup';
import { CredentialsPage } from './Credentials';

// antd renders in jsdom take seconds on a loaded 2-core machine: wait for conditions up to 15 s
configure({ asyncUtilTimeout: 15_000 });
vi.setConfig({ testTimeout: 90_000 });

afterEach(() => {
  vi.unstubAllGlobals();
});

function credential(id: string, name: string) {
  return {
    id,
    name,
    platform: 'openai',
    kind: 'api',
    priority: 0,
    weight_mode: 'auto',
    weight: 1,
    group_ids: [],
    enabled: true,
    status: 'ok',
    account: null,
  };
}

const BUSY: CredentialTrafficEntry = {
  credential_id: 'busy',
  requests: 40,
  failures: 3,
  success_rate: 37 / 40,
  mean_latency_ms: 180,
  p50_latency_ms: 250,
  p95_latency_ms: 2000,
};

/** Answers the list's reads; records the paths asked for. */
function server() {
  const paths: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      paths.push(url);
      const body =
        url === '/admin/v1/credentials'
          ? [credential('busy', 'busy relay'), credential('idle', 'idle relay')]
          : url === '/admin/v1/health'
            ? { items: [] }
            : url === '/admin/v1/groups'
              ? []
              : url === '/admin/v1/overview/credentials?window=1h'
                ? { from: '2026-12-06T11:00:00Z', to: '2026-12-06T12:00:00Z', window: '1h', credentials: [BUSY] }
                : undefined;
      return body === undefined
        ? new Response(JSON.stringify({ error: { code: 'not_found', message: 'no', type: 'not_found' } }), { status: 404 })
        : new Response(JSON.stringify(body), { status: 200 });
    }),
  );
  return paths;
}

describe('the credentials list', () => {
  it('shows each credential success rate and latency p50 / p95 over the last hour', async () => {
    await language('zh');
    const paths = server();
    const view = render(<CredentialsPage />);
    const busy = await waitFor(() => {
      const row = view.container.querySelector('tr[data-credential-id=busy]');
      expect(row).not.toBeNull();
      return row as HTMLElement;
    });
    await waitFor(() => expect(within(busy).getByTestId('credential-success-rate').textContent).toBe('92.5%'));
    expect(within(busy).getByTestId('credential-success-rate').getAttribute('title')).toBe('最近 1 小时：40 个请求，3 个失败');
    expect(within(busy).getByTestId('credential-latency').textContent).toBe('≤ 250 ms / ≤ 2 s');
    const idle = view.container.querySelector('tr[data-credential-id=idle]') as HTMLElement;
    expect(within(idle).getByTestId('credential-success-rate').textContent).toBe('—');
    expect(within(idle).getByTestId('credential-latency').textContent).toBe('—');
    const headers = Array.from(view.container.querySelectorAll('th')).map((th) => th.textContent);
    expect(headers).toContain('成功率 (1 小时)');
    expect(headers).toContain('延迟 p50 / p95 (1 小时)');
    expect(paths).toContain('/admin/v1/overview/credentials?window=1h');
    view.unmount();
  });
});

describe('the traffic figures as text', () => {
  it('reads a quantile beyond the largest bucket as more than 120 s and nothing as a dash', () => {
    expect(successRateText(undefined)).toBe('—');
    expect(latencyText(undefined)).toBe('—');
    expect(successRateText({ ...BUSY, success_rate: 1 })).toBe('100.0%');
    expect(latencyText({ ...BUSY, p50_latency_ms: 60_000, p95_latency_ms: null })).toBe('≤ 60 s / > 120 s');
  });
});
