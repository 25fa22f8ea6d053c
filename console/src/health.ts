import type { TFunction } from 'i18next';
import type { CredentialWithAuth, ModelView } from './api/client';
import { limitsFieldsInMessage } from './limits';

/** Account states whose own label is never masked by the failure count (the spec's terminal states). */
const TERMINAL = new Set(['revoked', 'error', 'paused']);

/** The status tag: 错误 N 次 while the failure count is above 0, the status's own label otherwise. */
export function statusTag(status: string, failureCount: number, t: TFunction): string {
  if (!TERMINAL.has(status) && failureCount > 0) return t('errorsTag', { count: failureCount });
  return t(`status.${status}`, { defaultValue: status });
}

export function statusColor(status: string, failureCount: number): string {
  if (status === 'revoked' || status === 'error') return 'red';
  if (status === 'paused') return 'default';
  if (status === 'warning') return 'gold';
  return failureCount > 0 ? 'volcano' : 'green';
}

/**
 * Whole seconds left until `until` (rounded up, like the API), measured on the server's clock:
 * `skewMs` is server time minus browser time. Null once it has passed or when there is none.
 */
export function remainingSeconds(until: string | null | undefined, nowMs: number, skewMs = 0): number | null {
  if (!until) return null;
  const left = Date.parse(until) - (nowMs + skewMs);
  return left > 0 ? Math.ceil(left / 1000) : null;
}

/** Server minus browser clock, from a response's generated_at and the moment it arrived. */
export function clockSkew(generatedAt: string | null | undefined, receivedAtMs: number): number {
  if (!generatedAt) return 0;
  const server = Date.parse(generatedAt);
  return Number.isFinite(server) ? server - receivedAtMs : 0;
}

/** `upstream (alias, …)`, or `upstream (已移除映射)` once no mapping reaches the key. */
export function modelDisplayName(
  modelKey: string,
  aliases: readonly string[] | null | undefined,
  mappingRemoved: boolean,
  t: TFunction,
): string {
  if (mappingRemoved) return `${modelKey} (${t('mappingRemoved')})`;
  const others = (aliases ?? []).filter((alias) => alias !== modelKey);
  return others.length > 0 ? `${modelKey} (${others.join(', ')})` : modelKey;
}

/**
 * 全部解除 issues requests only for models with something to clear: never a paused one (the
 * operator's own decision) and never a healthy one without cooldown or failure counts.
 */
export function modelsToClear(models: readonly ModelView[]): string[] {
  return models
    .filter((model) => model.status !== 'paused' && model.included_in_clear_all)
    .map((model) => model.model_key);
}

const POLICY_FIELDS = [
  'retry_count',
  'retry_interval_ms',
  'semantic_error_threshold',
  'cooldown_enabled',
  'cooldown_seconds',
  'error_status_enabled',
];

/**
 * The form fields an API validation code belongs to, so the code shows as a field error. A
 * failure-policy code names its field in the message; without one it marks every policy field.
 */
export function fieldsForCode(code: string, message: string): string[][] {
  switch (code) {
    case 'validation.route_credential_failure_policy': {
      const named = POLICY_FIELDS.filter((field) => message.includes(field));
      return (named.length > 0 ? named : ['cooldown_seconds']).map((field) => ['failure_policy', field]);
    }
    case 'validation.recovery_times_required':
    case 'validation.recovery_times':
      return [['recovery', 'times']];
    case 'validation.recovery_probe_interval':
      return [['recovery', 'interval_minutes']];
    case 'validation.recovery_mode':
    case 'validation.recovery_config_json':
      return [['recovery', 'mode']];
    case 'validation.recovery_time_zone':
      return [['recovery', 'time_zone']];
    case 'validation.platform_kind':
      return [['kind']];
    case 'validation.limits':
      return limitsFieldsInMessage(message);
    case 'validation.team_weight':
      return [['weight']];
    case 'validation.group_ids':
    case 'validation.credential_ids':
    case 'validation.model_mappings':
    case 'validation.weight':
    case 'validation.weight_mode':
    case 'validation.platform':
    case 'validation.kind':
    case 'validation.base_url':
    case 'validation.secret':
    case 'validation.priority':
    case 'validation.quota_remaining':
    case 'validation.id':
    case 'validation.name':
    case 'validation.blacklist_threshold':
    case 'validation.affinity_ttl_seconds':
    case 'validation.affinity_capacity':
    case 'validation.model_prices':
    case 'validation.expires_at':
    case 'validation.protocol':
    case 'validation.models':
    case 'validation.team_id':
      return [[code.substring('validation.'.length)]];
    default:
      return [];
  }
}

/**
 * Whether routing skips this official account with credential_auth_unavailable: its access token is
 * not usable (expired, or never authorized), or the account was revoked (only re-authorization
 * restores it). Api keys and static-token official credentials carry no auth view.
 */
export function authUnavailable(credential: Pick<CredentialWithAuth, 'kind' | 'status' | 'oauth'>): boolean {
  if (credential.kind !== 'official') return false;
  if (credential.oauth && credential.oauth.state !== 'authorized') return true;
  return credential.status === 'revoked';
}

/** A duration for an access-token expiry countdown: `2d 3h`, `7h 05m`, `4m 09s`, `9s`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${two(minutes)}m`;
  if (minutes > 0) return `${minutes}m ${two(rest)}s`;
  return `${rest}s`;
}

/** What the authorization box sends for a pasted callback: the URL the browser landed on, or the code itself. */
export function callbackBody(pasted: string, state: string | null): Record<string, string> {
  const text = pasted.trim();
  if (/^https?:\/\//i.test(text)) return { callback_url: text };
  return state && !text.includes('#') ? { code: text, state } : { code: text };
}
