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

export function reasonCode(code: string | null | undefined): ReasonCodeRow | undefined {
  return code ? REASON_CODES.find((row) => row.code === code) : undefined;
}
