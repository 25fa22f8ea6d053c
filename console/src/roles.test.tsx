import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, render, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MeContext, mayOffer } from './access';
import { landingPage, pageAllowed } from './App';
import i18n from './i18n';
import type { Me } from './sso';
import { keySpend, teamSpend } from './spend';
import { language } from './test-setup';
import { AccessKeysPage } from './pages/AccessKeys';
import { CredentialsPage } from './pages/Credentials';
import { GroupsPage } from './pages/Groups';
import { RequestLogsPage } from './pages/RequestLogs';
import { RouteCheckPage } from './pages/RouteCheck';
import { SettingsPage } from './pages/Settings';
import { TeamsPage } from './pages/Teams';
import { UsagePage } from './pages/Usage';
import { WebhooksPage } from './pages/Webhooks';

// antd renders in jsdom take seconds on a loaded 2-core machine: wait for conditions up to 15 s
configure({ asyncUtilTimeout: 15_000 });
vi.setConfig({ testTimeout: 90_000 });

afterEach(() => {
  vi.unstubAllGlobals();
  keySpend.invalidate();
  teamSpend.invalidate();
});

type Role = 'admin' | 'operator' | 'viewer' | 'team_admin' | 'team_member';
const ALL: Role[] = ['admin', 'operator', 'viewer', 'team_admin', 'team_member'];
const READERS: Role[] = ['admin', 'operator', 'viewer'];
const OPERATORS: Role[] = ['admin', 'operator'];
const ADMINS: Role[] = ['admin'];
const KEY_MANAGERS: Role[] = ['admin', 'operator', 'team_admin'];

/** The rows of route-core's AdminEndpoints the console asks /me about (the API answers the full list). */
const RULES: [string, Role[]][] = [
  ['GET /credentials', READERS],
  ['POST /credentials', OPERATORS],
  ['GET /credentials/{id}', READERS],
  ['PATCH /credentials/{id}', OPERATORS],
  ['DELETE /credentials/{id}', OPERATORS],
  ['POST /credentials/{id}/pause', OPERATORS],
  ['POST /credentials/{id}/test', OPERATORS],
  ['POST /credentials/{id}/models/{modelKey}/pause', OPERATORS],
  ['PUT /credentials/{id}/oauth', OPERATORS],
  ['GET /groups', READERS],
  ['POST /groups', OPERATORS],
  ['PATCH /groups/{id}', OPERATORS],
  ['DELETE /groups/{id}', OPERATORS],
  ['GET /access-keys', ALL],
  ['POST /access-keys', KEY_MANAGERS],
  ['PATCH /access-keys/{id}', KEY_MANAGERS],
  ['DELETE /access-keys/{id}', KEY_MANAGERS],
  ['GET /access-keys/{id}/spend', ALL],
  ['GET /teams', READERS],
  ['POST /teams', ADMINS],
  ['GET /teams/{id}', ALL],
  ['PATCH /teams/{id}', ADMINS],
  ['DELETE /teams/{id}', ADMINS],
  ['GET /teams/{id}/spend', ALL],
  ['GET /settings', READERS],
  ['PATCH /settings', ADMINS],
  ['GET /webhooks', READERS],
  ['POST /webhooks', ADMINS],
  ['PATCH /webhooks/{id}', ADMINS],
  ['DELETE /webhooks/{id}', ADMINS],
  ['GET /health', READERS],
  ['GET /usage', ALL],
  ['GET /requests', ALL],
  ['GET /overview', READERS],
  ['POST /route-check', ALL],
  ['GET /me', ALL],
  ['GET /audit', READERS],
];

function me(role: Role): Me {
  return {
    subject: role,
    via: 'sso',
    role,
    team_id: role.startsWith('team_') ? 'team-demo' : null,
    allowed: RULES.filter(([, roles]) => roles.includes(role)).map(([rule]) => rule.replace(' ', ' /admin/v1')),
  };
}

const CREDENTIAL = {
  id: 'primary',
  name: 'primary',
  platform: 'openai',
  kind: 'api',
  priority: 1,
  weight_mode: 'auto',
  weight: 1,
  group_ids: [],
  enabled: true,
  status: 'ok',
  config_json_valid: true,
};
const KEY = { id: 'k1', name: 'notebook', key_prefix: 'rk-abc', enabled: true, team_id: 'team-demo', limits: null, group_ids: [], allowed_models: [], allowed_protocols: [], created_at: '2026-12-01T00:00:00Z' };
const TEAM = { id: 'team-demo', name: 'Demo team', limits: null, weight: 1, key_count: 1, created_at: '2026-12-01T00:00:00Z', updated_at: '2026-12-01T00:00:00Z', version: 1 };
const SPEND = { spend_usd: 0, max_budget: null, budget_duration: null, budget_window_start: null, budget_reset_at: null, requests: 0, input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, cache_write_5m_tokens: 0, cache_write_1h_tokens: 0, reasoning_tokens: 0, by_model: [] };

/** A fetch answering the console's reads with one item each; records every path asked for. */
function server() {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const method = init?.method ?? 'GET';
      const path = url.replace('/admin/v1', '');
      calls.push(`${method} ${path}`);
      const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
      if (path.startsWith('/credentials')) return json([CREDENTIAL]);
      if (path === '/health') return json({ items: [] });
      if (path.startsWith('/overview/credentials')) return json({ items: [] });
      if (path === '/groups') return json([{ id: 'g1', name: 'main', enabled: true, weight_mode: 'auto', effective_weight: 1, exposed_models: [], credential_ids: [], bridging: 'any' }]);
      if (path === '/access-keys') return json([KEY]);
      if (path.endsWith('/spend')) return json(SPEND);
      if (path.startsWith('/teams?')) return json({ items: [TEAM], next_cursor: null });
      if (path === '/teams/team-demo') return json(TEAM);
      if (path === '/settings') return json({ blacklist_threshold: 3, affinity_ttl_seconds: 600, affinity_capacity: 1000, model_prices: {} });
      if (path.startsWith('/webhooks')) return json({ items: [{ id: 'w1', url: 'https://hooks.example/x', event_types: ['credential.paused'], format: 'json', enabled: true }], next_cursor: null });
      if (path.startsWith('/usage')) return json({ rows: [], total: null });
      if (path.startsWith('/requests')) return json({ items: [], next_cursor: null });
      return new Response(JSON.stringify({ error: { code: 'forbidden', message: 'refused', type: 'forbidden' } }), { status: 403 });
    }),
  );
  return calls;
}

function as(role: Role | null, page: ReactNode) {
  return render(<MeContext.Provider value={role === null ? null : me(role)}>{page}</MeContext.Provider>);
}

const testId = (view: ReturnType<typeof render>, id: string) => view.container.querySelector(`[data-testid="${id}"]`);

describe('a viewer', () => {
  it('sees the credentials without create, batch, archive or a live switch', async () => {
    await language('en');
    server();
    const view = as('viewer', <CredentialsPage />);
    await waitFor(() => expect(testId(view, 'credential-name')).not.toBeNull());
    for (const id of ['credential-create', 'batch-bar', 'credential-archive']) expect(testId(view, id), id).toBeNull();
    expect((testId(view, 'credential-enabled') as HTMLButtonElement).disabled).toBe(true);
    expect(testId(view, 'credential-edit')?.textContent).toBe('View');
    view.unmount();
  });

  it('has no write button on groups, keys, teams and webhooks', async () => {
    await language('en');
    server();
    const groups = as('viewer', <GroupsPage />);
    await waitFor(() => expect(testId(groups, 'group-edit')).not.toBeNull());
    expect(testId(groups, 'group-create')).toBeNull();
    expect(testId(groups, 'group-delete')).toBeNull();
    groups.unmount();

    const keys = as('viewer', <AccessKeysPage />);
    await waitFor(() => expect(testId(keys, 'key-edit')).not.toBeNull());
    expect(testId(keys, 'key-create')).toBeNull();
    expect(testId(keys, 'key-delete')).toBeNull();
    expect((testId(keys, 'key-enabled') as HTMLButtonElement).disabled).toBe(true);
    keys.unmount();

    const teams = as('viewer', <TeamsPage />);
    await waitFor(() => expect(teams.container.querySelector('tr[data-team-id="team-demo"]')).not.toBeNull());
    for (const id of ['team-create', 'team-edit', 'team-delete']) expect(testId(teams, id), id).toBeNull();
    teams.unmount();

    const webhooks = as('viewer', <WebhooksPage />);
    await waitFor(() => expect(testId(webhooks, 'webhook-log')).not.toBeNull());
    for (const id of ['webhook-create', 'webhook-edit', 'webhook-delete']) expect(testId(webhooks, id), id).toBeNull();
    webhooks.unmount();
  });

  it('reads the settings in a disabled form without save, add or remove', async () => {
    await language('zh');
    server();
    const view = as('viewer', <SettingsPage />);
    await waitFor(() => expect(testId(view, 'read-only')?.textContent).toBe('你的角色只能查看此页，不能修改。'));
    for (const id of ['settings-save', 'price-add', 'price-remove']) expect(testId(view, id), id).toBeNull();
    expect(view.container.querySelectorAll('input:not([disabled])').length).toBe(0);
    view.unmount();
  });
});

describe('an operator', () => {
  it('runs the pool (credentials with batch actions, groups, keys) but not the settings, teams or webhooks', async () => {
    await language('en');
    server();
    const credentials = as('operator', <CredentialsPage />);
    await waitFor(() => expect(testId(credentials, 'credential-create')).not.toBeNull());
    expect(testId(credentials, 'batch-bar')).not.toBeNull();
    expect(testId(credentials, 'credential-edit')?.textContent).toBe('Edit');
    credentials.unmount();

    const groups = as('operator', <GroupsPage />);
    await waitFor(() => expect(testId(groups, 'group-create')).not.toBeNull());
    groups.unmount();

    const keys = as('operator', <AccessKeysPage />);
    await waitFor(() => expect(testId(keys, 'key-create')).not.toBeNull());
    keys.unmount();

    const settings = as('operator', <SettingsPage />);
    await waitFor(() => expect(testId(settings, 'read-only')?.textContent).toBe('Your role can look at this page but not change it.'));
    expect(testId(settings, 'settings-save')).toBeNull();
    expect(testId(settings, 'price-add')).toBeNull();
    settings.unmount();

    const teams = as('operator', <TeamsPage />);
    await waitFor(() => expect(teams.container.querySelector('tr[data-team-id="team-demo"]')).not.toBeNull());
    expect(testId(teams, 'team-create')).toBeNull();
    teams.unmount();

    const webhooks = as('operator', <WebhooksPage />);
    await waitFor(() => expect(testId(webhooks, 'webhook-log')).not.toBeNull());
    expect(testId(webhooks, 'webhook-create')).toBeNull();
    webhooks.unmount();
  });
});

describe('when /me does not answer (the break-glass path of an older service)', () => {
  it('shows every action as before roles: the API still refuses what the caller may not do', async () => {
    await language('en');
    server();
    expect(mayOffer(null, 'PATCH', '/settings')).toBe(true);
    const settings = as(null, <SettingsPage />);
    await waitFor(() => expect(testId(settings, 'settings-save')).not.toBeNull());
    expect(testId(settings, 'read-only')).toBeNull();
    settings.unmount();
    const credentials = as(null, <CredentialsPage />);
    await waitFor(() => expect(testId(credentials, 'credential-create')).not.toBeNull());
    credentials.unmount();
  });
});

describe('the team roles', () => {
  it('land on their team page and reach only the pages of their team', () => {
    for (const role of ['team_admin', 'team_member'] as const) {
      expect(landingPage(me(role))).toBe('teams');
      for (const page of ['teams', 'accessKeys', 'usage', 'requests', 'routeCheck'] as const) expect(pageAllowed(me(role), page), `${role} ${page}`).toBe(true);
      for (const page of ['overview', 'credentials', 'groups', 'health', 'webhooks', 'settings', 'audit'] as const) expect(pageAllowed(me(role), page), `${role} ${page}`).toBe(false);
    }
    expect(landingPage(me('viewer'))).toBe('overview');
    expect(landingPage(null)).toBe('overview');
    expect(pageAllowed(null, 'settings')).toBe(true);
  });

  it('a team member sees its own team, read-only, asking only for that team', async () => {
    await language('zh');
    const calls = server();
    const view = as('team_member', <TeamsPage />);
    await waitFor(() => expect(testId(view, 'own-team')?.textContent).toBe('你的团队：Demo team'));
    await waitFor(() => expect(view.container.querySelector('tr[data-team-id="team-demo"]')).not.toBeNull());
    for (const id of ['team-create', 'team-edit', 'team-delete']) expect(testId(view, id), id).toBeNull();
    expect(calls).toContain('GET /teams/team-demo');
    expect(calls.filter((call) => call.startsWith('GET /teams?'))).toEqual([]);
    view.unmount();
  });

  it('a team member reads usage, request logs, route check and keys without asking for what it cannot read', async () => {
    await language('en');
    const calls = server();
    for (const page of [<UsagePage key="u" />, <RequestLogsPage key="r" />, <RouteCheckPage key="c" />, <AccessKeysPage key="k" />]) {
      const view = as('team_member', page);
      await waitFor(() => expect(calls.some((call) => call.startsWith('GET /access-keys'))).toBe(true));
      await waitFor(() => expect(view.container.querySelector('.ant-form, .ant-table')).not.toBeNull());
      expect(view.container.querySelector('.ant-alert-error')).toBeNull();
      expect(testId(view, 'key-create')).toBeNull();
      view.unmount();
    }
    await waitFor(() => expect(calls.some((call) => call.startsWith('GET /usage'))).toBe(true));
    await waitFor(() => expect(calls.some((call) => call.startsWith('GET /requests'))).toBe(true));
    const refused = calls.filter((call) => /^GET \/(credentials|groups|teams\?|overview|health|settings)/.test(call));
    expect(refused).toEqual([]);
  });

  it('a team admin creates keys for its team without reading groups or the team list', async () => {
    await language('en');
    const calls = server();
    const view = as('team_admin', <AccessKeysPage />);
    await waitFor(() => expect(testId(view, 'key-create')).not.toBeNull());
    await waitFor(() => expect(testId(view, 'key-team')?.textContent).toBe('Demo team'));
    expect(testId(view, 'key-delete')).not.toBeNull();
    expect(calls.filter((call) => /^GET \/(groups|teams\?)/.test(call))).toEqual([]);
    view.unmount();
  });
});

describe('the words of roles', () => {
  it('exist in Chinese and English', () => {
    for (const lng of ['zh', 'en']) {
      for (const key of ['view', 'readOnly', 'forbiddenPage', 'team.yours']) {
        expect(i18n.exists(key, { lng }), `${lng} ${key}`).toBe(true);
      }
    }
  });
});
