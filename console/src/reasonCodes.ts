/** The reason-code table of how-scheduling-works ("Reason codes for routing failures"), verbatim. */
export interface ReasonCodeRow {
  code: string;
  meaning: string;
  howToHandle: string;
}

export const REASON_CODES: ReasonCodeRow[] = [
  { code: 'access_key_disabled', meaning: 'AccessKey has been deactivated', howToHandle: 'Enable it on the AccessKeys page' },
  { code: 'access_key_expired', meaning: 'AccessKey has expired', howToHandle: 'Create a new key or extend validity' },
  { code: 'protocol_filtered', meaning: 'This key has not selected this protocol', howToHandle: 'Add a check for the corresponding protocol in the key' },
  { code: 'model_filtered', meaning: 'Requested model is not within the allowed range', howToHandle: 'Check model limitations for the key' },
  { code: 'model_required_by_filter', meaning: 'The key restricts models, but the request carried no model name', howToHandle: "Name the model explicitly in the request, or drop the key's model restriction" },
  { code: 'operation_unsupported', meaning: 'The channel does not support this operation under that protocol', howToHandle: 'Switch to a Group that supports the capability; see Protocols and conversion limits' },
  { code: 'native_route_required', meaning: 'The request requires a native route, but this Group can only serve it through conversion', howToHandle: 'Use a Group whose protocol matches the client' },
  { code: 'no_route_target', meaning: 'No routable target was found', howToHandle: 'Confirm the key has authorized at least one Group' },
  { code: 'group_disabled', meaning: 'Group is deactivated', howToHandle: 'Enable this Group' },
  { code: 'group_filtered', meaning: 'Group is not within the authorization scope of this key', howToHandle: 'Add this Group in the key' },
  { code: 'no_available_group', meaning: 'No Group can provide this model', howToHandle: 'Confirm the model is open in some Group' },
  { code: 'no_credentials', meaning: 'There is not a single credential in the Group.', howToHandle: 'Add credentials to the Group' },
  { code: 'group_weight_zero', meaning: 'A legacy configuration has a Group weight of 0', howToHandle: 'Switch to automatic weight or a manual weight from 1 to 100' },
  { code: 'credential_disabled', meaning: 'Credential has been deactivated', howToHandle: 'Enable it, or depend on other credentials' },
  { code: 'credential_auth_unavailable', meaning: 'Subscription account authorization has expired', howToHandle: 'Reauthorize, see subscription account page' },
  { code: 'credential_blacklisted', meaning: 'Credential has been blacklisted', howToHandle: 'Restore it after confirming the credential itself is valid' },
  { code: 'credential_cooldown', meaning: 'Credential is in cooldown', howToHandle: 'Wait for automatic recovery, or add more credentials to share the load' },
  { code: 'credential_weight_zero', meaning: 'A credential weight of 0 left over from an old configuration', howToHandle: 'Switch to automatic weight or a manual weight from 1 to 100' },
  { code: 'credential_not_allowed', meaning: 'This request already excluded this credential', howToHandle: 'Expected behavior; a retry will not hit the one that just failed' },
  { code: 'no_available_credential', meaning: 'All credentials are unavailable', howToHandle: "Check the health page; most likely it's a collective rate limit or key expiration." },
  // reliability-and-auto-recovery: the two model-related codes
  { code: 'route_pool.model_unmatched', meaning: 'No account maps this model at all — step 3 emptied the set', howToHandle: "Add it to an account's model mappings" },
  { code: 'route_pool.model_unavailable', meaning: 'Accounts do serve this model, but on all of them it is paused or marked unhealthy', howToHandle: "Clear the pause/error in the 模型状态 section under the edit drawer's 故障处理 tab" },
];

/**
 * The codes of teams, limits and budgets: the gateway's refusals (HTTP 429 / 503 before routing,
 * recorded in the request log) and route check's skip of a credential at its own limits. Not in the
 * spec's table, so they carry their own text in both languages.
 */
export interface LocalizedReasonCode {
  code: string;
  /** a refusal of the client's request (request log, route check) or a credential skipped at selection (route check's trace) */
  kind: 'refusal' | 'skip';
  zh: { meaning: string; howToHandle: string };
  en: { meaning: string; howToHandle: string };
}

export const LIMIT_REASON_CODES: LocalizedReasonCode[] = [
  {
    code: 'rate_limit_exceeded',
    kind: 'refusal',
    zh: {
      meaning: '请求被拒绝（HTTP 429）：AccessKey 或其团队在最近 60 秒内的请求数（rpm_limit）或 tokens 数（tpm_limit）已达上限',
      howToHandle: '按 Retry-After 等待后重试，或在 AccessKeys / 团队页面提高 rpm_limit、tpm_limit',
    },
    en: {
      meaning: "Refused (HTTP 429): the AccessKey's or its team's requests (rpm_limit) or tokens (tpm_limit) in the last 60 seconds are at their limit",
      howToHandle: 'Retry after the Retry-After seconds, or raise rpm_limit / tpm_limit on the AccessKeys or Teams page',
    },
  },
  {
    code: 'concurrency_limit_exceeded',
    kind: 'refusal',
    zh: {
      meaning: '请求被拒绝（HTTP 429）：同时进行的请求数已达 max_parallel_requests，或号池繁忙时团队已用满按权重分得的份额',
      howToHandle: '等正在进行的请求结束后重试；提高 max_parallel_requests，或提高团队权重',
    },
    en: {
      meaning: "Refused (HTTP 429): requests in flight are at max_parallel_requests, or the pool is contended and the team is at its weighted share",
      howToHandle: "Retry once requests in flight finish; raise max_parallel_requests, or the team's weight",
    },
  },
  {
    code: 'budget_exceeded',
    kind: 'refusal',
    zh: {
      meaning: '请求被拒绝（HTTP 429）：AccessKey 或其团队本预算周期的花费已达 max_budget',
      howToHandle: '等待预算周期重置（见团队 / AccessKey 的重置时间），或提高 max_budget',
    },
    en: {
      meaning: "Refused (HTTP 429): the AccessKey's or its team's spend in this budget window has reached max_budget",
      howToHandle: 'Wait for the budget window to reset (the reset time is on the Teams / AccessKeys page), or raise max_budget',
    },
  },
  {
    code: 'limits_unavailable',
    kind: 'refusal',
    zh: {
      meaning: '请求被拒绝（HTTP 503）：网关暂时无法与其他副本共享限额计数（准入主题不可用），且配置为此时拒绝（when-unshared=refuse）',
      howToHandle: '检查 Kafka 与网关日志；恢复后自动正常，或改为 when-unshared=local',
    },
    en: {
      meaning: 'Refused (HTTP 503): the gateway cannot share its limit counters with the other replicas (the admissions topic is unavailable) and is set to refuse then (when-unshared=refuse)',
      howToHandle: 'Check Kafka and the gateway logs; it clears by itself once they recover, or set when-unshared=local',
    },
  },
  {
    code: 'credential_full',
    kind: 'skip',
    zh: {
      meaning: '凭证已达自身限额（rpm_limit 或 max_parallel_requests），本次选择跳过它；这不是故障，不计入失败',
      howToHandle: '预期行为；若经常出现，提高凭证的限额或增加凭证分担负载',
    },
    en: {
      meaning: "The credential is at its own limits (rpm_limit or max_parallel_requests) and is skipped this time; not a failure, nothing is recorded against it",
      howToHandle: "Expected behavior; if it happens often, raise the credential's limits or add credentials to share the load",
    },
  },
];

/**
 * A reason code's row in the console's language: the spec's codes keep the spec's English text in
 * both languages; the limit codes have their own Chinese and English.
 */
export function reasonCode(code: string | null | undefined, language: string = 'en'): ReasonCodeRow | undefined {
  if (!code) return undefined;
  const limit = LIMIT_REASON_CODES.find((row) => row.code === code);
  if (limit) return { code, ...(language === 'zh' ? limit.zh : limit.en) };
  return REASON_CODES.find((row) => row.code === code);
}

/** True for a code the console translates itself (its text wins over the server's English). */
export function isLimitCode(code: string | null | undefined): boolean {
  return !!code && LIMIT_REASON_CODES.some((row) => row.code === code);
}

/** Every code in the console's language: the spec's table, then the limit codes. */
export function allReasonCodes(language: string): ReasonCodeRow[] {
  return [...REASON_CODES, ...LIMIT_REASON_CODES.map((row) => reasonCode(row.code, language)!)];
}
