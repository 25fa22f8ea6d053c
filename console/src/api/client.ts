import type { components } from './schema';

/**
 * The wire types, generated from the OpenAPI document that state-service serves
 * (openapi/admin-api.json, kept equal to the served one by OpenApiWireTests). The document marks no
 * property required, but every response carries every property (null when empty): `Wire` says so.
 */
type Wire<T> = T extends (infer U)[]
  ? Wire<U>[]
  : T extends object
    ? { [K in keyof T]-?: Wire<Exclude<T[K], undefined>> }
    : T;
type Schemas = { [K in keyof components['schemas']]: Wire<components['schemas'][K]> };
export type CredentialView = Schemas['CredentialView'];
export type AccountState = Schemas['AccountState'];
export type FailurePolicy = Schemas['FailurePolicy'];
export type ModelView = Schemas['ModelView'];
export type GroupView = Schemas['GroupView'];
export type AccessKeyView = Schemas['AccessKeyView'];
export type PoolHealthView = Schemas['PoolHealthView'];
export type CredentialHealthView = Schemas['CredentialHealthView'];
export type UnavailableModelView = Schemas['UnavailableModelView'];
export type SettingsView = Schemas['SettingsView'];
export type RouteCheckView = Schemas['RouteCheckView'];
export type TimelineEntryView = Schemas['TimelineEntryView'];
export type RequestLogView = Schemas['RequestLogView'];
export type UsageView = Schemas['UsageView'];
export type CreatedAccessKey = Schemas['CreatedAccessKey'];

/** A budget window (route-core BudgetDuration): calendar windows in the gateway's time zone. */
export type BudgetDuration = '1h' | '1d' | '7d' | '30d' | '1mo';

/** The limits of a team or an AccessKey: every field present, null = unlimited. */
export interface Limits {
  rpm_limit: number | null;
  tpm_limit: number | null;
  max_parallel_requests: number | null;
  /** USD per budget window (0 = nothing may be spent); no duration = a lifetime budget. */
  max_budget: number | null;
  budget_duration: BudgetDuration | null;
}

/** What an upstream credential itself allows: null = unlimited. */
export interface CredentialLimits {
  rpm_limit: number | null;
  max_parallel_requests: number | null;
}

/** GET /teams, /teams/{id}. */
export interface TeamView {
  id: string;
  name: string;
  limits: Limits | null;
  /** 1..1000: the team's share of a contended pool. */
  weight: number;
  key_count: number;
  created_at: string;
  updated_at: string;
  version: number;
}

/** The event types a webhook endpoint can subscribe to (route-core WebhookEventType). */
export const WEBHOOK_EVENT_TYPES = [
  'credential.revoked',
  'credential.error',
  'credential.escalated',
  'oauth.expired',
  'oauth.refresh_failing',
  'usage.dead_lettered',
  'team.budget_threshold',
] as const;

/** GET /webhooks, /webhooks/{id}: never the secret, only that one is set. */
export interface WebhookView {
  id: string;
  url: string;
  event_types: string[];
  format: 'json' | 'slack';
  enabled: boolean;
  secret_set: boolean;
  created_at: string;
  updated_at: string;
}

/** GET /webhooks/{id}/deliveries: one delivery, newest first; id is the X-Route-Delivery-Id. */
export interface WebhookDeliveryView {
  id: string;
  notification_id: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** GET /teams/{id}/spend and /access-keys/{id}/spend: the current budget window (the calendar month without a budget). */
export interface SpendView {
  spend_usd: number;
  max_budget: number | null;
  budget_duration: BudgetDuration | null;
  budget_window_start: string | null;
  /** null for a lifetime budget */
  budget_reset_at: string | null;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  /** 5-minute and 1-hour cache writes together */
  cache_write_tokens: number;
  cache_write_5m_tokens: number;
  cache_write_1h_tokens: number;
  /** of the output tokens, the reasoning ones */
  reasoning_tokens: number;
  by_model: { model: string; spend_usd: number; requests: number }[];
}

/** One budget in a route check's admission part: the key's or its team's, with its window's settled spend. */
export interface BudgetCheck {
  subject: 'key' | 'team' | string;
  subject_id: string;
  max_budget: number;
  budget_duration: BudgetDuration | null;
  spend_usd: number;
  budget_window_start: string | null;
  budget_reset_at: string | null;
  exceeded: boolean;
}

/** What the gateway's admission would decide before routing (route check's `admission`; null for an unknown key). */
export interface AdmissionCheck {
  team_id: string | null;
  team_name: string | null;
  key_limits: Limits | null;
  team_limits: Limits | null;
  effective_limits: Limits | null;
  budgets: BudgetCheck[] | null;
  /** not_limited (admission skipped), admitted or refused */
  decision: 'not_limited' | 'admitted' | 'refused' | string;
  reason_code: string | null;
  budget_reset_at: string | null;
  note: string | null;
}

/** A route check answer with its admission part (absent on a service that predates teams). */
export type RouteCheckWithAdmission = Omit<RouteCheckView, 'admission'> & { admission?: AdmissionCheck | null };

/** An AccessKey with its team and limits (absent on a service that predates teams). */
export type KeyWithLimits = Omit<AccessKeyView, 'team_id' | 'limits'> & { team_id?: string | null; limits?: Limits | null };
/** A credential with its own limits (absent on a service that predates them). */
export type CredentialWithLimits = Omit<CredentialView, 'limits'> & { limits?: CredentialLimits | null };

/**
 * The authorization of an official credential (GET /credentials/{id}/oauth, and the credential
 * view's `oauth`): never a token. `state` is authorized, expired or unauthorized.
 */
export interface OAuthView {
  state: 'authorized' | 'expired' | 'unauthorized' | string;
  access_expires_at: string | null;
  account_id: string | null;
  refreshed_at: string | null;
  last_refresh_error: string | null;
}

/** POST /credentials/{id}/oauth/authorize: the URL to open, the state it carries, when it stops working. */
export interface AuthorizeStart {
  authorize_url: string;
  state: string;
  expires_at: string;
}

/** A credential view with its auth view (null for api keys and static-token official credentials; the document types none of its fields nullable). */
export type CredentialWithAuth = Omit<CredentialView, 'oauth' | 'limits'> & { oauth?: OAuthView | null; limits?: CredentialLimits | null };

export interface Page<T> {
  items: T[];
  next_cursor?: string | null;
}

/**
 * The services' one error body: {"error":{"code","message","type"}}. `code` is the precise reason,
 * `type` its class (invalid_request, unauthorized, forbidden, not_found, conflict, server_error);
 * an answer without that body (a proxy's page, say) is `http_<status>` of type `http_error`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly type: string = 'http_error',
  ) {
    super(message);
  }
}

export const API_BASE = '/admin/v1';

const TOKEN_KEY = 'console.admin-token';

/**
 * The admin token lives in memory and in this tab's sessionStorage (so a reload keeps the session),
 * never in localStorage or a URL; signing out or closing the tab forgets it.
 */
let token: string | null = readStoredToken();

function readStoredToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function currentToken(): string | null {
  return token;
}

export function setToken(value: string | null) {
  token = value;
  validators.clear();
  try {
    if (value === null) sessionStorage.removeItem(TOKEN_KEY);
    else sessionStorage.setItem(TOKEN_KEY, value);
  } catch {
    // storage refused (private mode): memory alone still works for this page
  }
}

let onUnauthorized: () => void = () => {};

export function whenUnauthorized(callback: () => void) {
  onUnauthorized = callback;
}

/**
 * The last answer of each GET with its ETag: the next GET of the same path sends If-None-Match and a
 * 304 (state-service's ConditionalGetFilter) reuses the body already parsed. Bounded: the oldest
 * entry goes first.
 */
const validators = new Map<string, { etag: string; body: unknown }>();
const MAX_VALIDATORS = 64;

export function rememberValidator(path: string, etag: string, body: unknown) {
  validators.delete(path);
  validators.set(path, { etag, body });
  while (validators.size > MAX_VALIDATORS) {
    const oldest = validators.keys().next().value;
    if (oldest === undefined) break;
    validators.delete(oldest);
  }
}

export function validatorCount() {
  return validators.size;
}

export async function api<T>(method: string, path: string, body?: unknown, authToken = token): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (authToken) headers.Authorization = `Bearer ${authToken}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const conditional = method === 'GET' && authToken === token ? validators.get(path) : undefined;
  if (conditional) headers['If-None-Match'] = conditional.etag;
  const response = await fetch(API_BASE + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'omit',
    cache: 'no-store',
  });
  if (response.status === 304 && conditional) return conditional.body as T;
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string; type?: string } } | null)?.error;
    if (response.status === 401 && authToken === token) onUnauthorized();
    throw new ApiError(
      response.status,
      error?.code ?? `http_${response.status}`,
      error?.message ?? response.statusText,
      error?.type ?? 'http_error',
    );
  }
  const etag = response.headers?.get?.('ETag');
  if (method === 'GET' && authToken === token && etag) rememberValidator(path, etag, parsed);
  return parsed as T;
}

/** Model keys may contain '/', each segment is encoded on its own. */
export function modelPath(credentialId: string, modelKey: string, action: string) {
  const key = modelKey.split('/').map(encodeURIComponent).join('/');
  return `/credentials/${encodeURIComponent(credentialId)}/models/${key}/${action}`;
}

export function query(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * Every item of a list endpoint: an array as it is, or `{items, next_cursor}` pages followed to the
 * end (at most `maxPages`, so a misbehaving cursor cannot loop the console).
 */
export async function listAll<T>(path: string, maxPages = 50): Promise<T[]> {
  const first = await api<T[] | Page<T>>('GET', path);
  if (Array.isArray(first)) return first;
  const items = [...(first?.items ?? [])];
  let cursor = first?.next_cursor ?? null;
  const separator = path.includes('?') ? '&' : '?';
  for (let page = 1; cursor && page < maxPages; page++) {
    const next = await api<Page<T>>('GET', `${path}${separator}cursor=${encodeURIComponent(cursor)}`);
    items.push(...(next?.items ?? []));
    cursor = next?.next_cursor ?? null;
  }
  return items;
}
