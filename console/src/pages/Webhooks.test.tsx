import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, waitFor, within } from '@testing-library/react';
import type { WebhookDeliveryView, WebhookView } from '../api/client';
import { language } from '../test-setup';
import { WebhooksPage, webhookBody } from './Webhooks';

// antd renders in jsdom take seconds on a loaded 2-core machine: wait for conditions up to 15 s
configure({ asyncUtilTimeout: 15_000 });
vi.setConfig({ testTimeout: 90_000 });

afterEach(() => {
  vi.unstubAllGlobals();
});

const HOOK: WebhookView = {
  id: 'oncall',
  url: 'https://hooks.example.com/route',
  event_types: ['credential.revoked', 'team.budget_threshold'],
  format: 'json',
  enabled: true,
  secret_set: true,
  created_at: '2026-12-01T00:00:00Z',
  updated_at: '2026-12-01T00:00:00Z',
};

const DELIVERIES: WebhookDeliveryView[] = [
  {
    id: '7d0c6a40-0000-4000-8000-000000000001',
    notification_id: '5b0c6a40-0000-3000-8000-000000000001',
    event_type: 'credential.revoked',
    status: 'delivered',
    attempts: 2,
    next_attempt_at: null,
    last_status: 200,
    last_error: null,
    created_at: '2026-12-06T05:00:00Z',
    delivered_at: '2026-12-06T05:00:11Z',
  },
  {
    id: '7d0c6a40-0000-4000-8000-000000000002',
    notification_id: '5b0c6a40-0000-3000-8000-000000000002',
    event_type: 'team.budget_threshold',
    status: 'pending',
    attempts: 1,
    next_attempt_at: '2026-12-06T05:01:00Z',
    last_status: 500,
    last_error: 'answered 500',
    created_at: '2026-12-06T04:59:00Z',
    delivered_at: null,
  },
];

function server() {
  const calls: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, url, body });
      if (method === 'GET' && url === '/admin/v1/webhooks') {
        return new Response(JSON.stringify({ items: [HOOK], next_cursor: null }), { status: 200 });
      }
      if (method === 'GET' && url === '/admin/v1/webhooks/oncall/deliveries?limit=100') {
        return new Response(JSON.stringify({ items: DELIVERIES, next_cursor: null }), { status: 200 });
      }
      return new Response(JSON.stringify({ error: { code: 'not_found', message: 'no', type: 'not_found' } }), { status: 404 });
    }),
  );
  return calls;
}

describe('the webhook body', () => {
  it('sends the secret on create and on edit only when a new one was typed; the id only on create', () => {
    const values = { id: 'oncall', url: ' https://hooks.example.com/route ', event_types: ['credential.revoked'], format: 'json' as const, enabled: true };
    expect(webhookBody({ ...values, secret: 'whsec-0123456789abcdef' }, true)).toEqual({
      id: 'oncall',
      url: 'https://hooks.example.com/route',
      event_types: ['credential.revoked'],
      format: 'json',
      enabled: true,
      secret: 'whsec-0123456789abcdef',
    });
    const edit = webhookBody({ ...values, secret: '' }, false);
    expect(edit).not.toHaveProperty('secret');
    expect(edit).not.toHaveProperty('id');
    expect(webhookBody({ ...values, secret: 'whsec-rotated-0123456789' }, false).secret).toBe('whsec-rotated-0123456789');
  });
});

describe('the webhooks page', () => {
  it('lists the endpoints and shows an endpoint delivery log with status, attempts and the last error', async () => {
    await language('en');
    const calls = server();
    const view = render(<WebhooksPage />);
    const row = await waitFor(() => {
      const found = view.container.querySelector('tr[data-webhook-id=oncall]');
      expect(found).not.toBeNull();
      return found as HTMLElement;
    });
    expect(within(row).getByTestId('webhook-url').textContent).toBe('https://hooks.example.com/route');
    expect(within(row).getByTestId('webhook-events').textContent).toBe('credential.revokedteam.budget_threshold');
    fireEvent.click(within(row).getByTestId('webhook-log'));
    const delivered = await waitFor(() => {
      const found = document.querySelector(`tr[data-delivery-id="${DELIVERIES[0].id}"]`);
      expect(found).not.toBeNull();
      return found as HTMLElement;
    });
    expect(within(delivered).getByTestId('delivery-status').textContent).toBe('delivered');
    expect(within(delivered).getByTestId('delivery-attempts').textContent).toBe('2');
    const pending = document.querySelector(`tr[data-delivery-id="${DELIVERIES[1].id}"]`) as HTMLElement;
    expect(within(pending).getByTestId('delivery-status').textContent).toBe('pending');
    expect(pending.textContent).toContain('answered 500');
    expect(calls.some((c) => c.url === '/admin/v1/webhooks/oncall/deliveries?limit=100')).toBe(true);
    view.unmount();
  });
});
