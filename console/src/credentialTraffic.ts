import { latency, percent } from './overview';

/** GET /admin/v1/overview/credentials (route-core CredentialTraffic): client traffic per credential. */
export interface CredentialTrafficEntry {
  credential_id: string;
  requests: number;
  failures: number;
  success_rate: number;
  mean_latency_ms: number;
  p50_latency_ms: number | null;
  p95_latency_ms: number | null;
}
export interface CredentialTrafficView {
  from: string;
  to: string;
  window: string;
  credentials: CredentialTrafficEntry[];
}

/** The window the credentials list shows. */
export const CREDENTIAL_TRAFFIC_WINDOW = '1h';

export function trafficById(view: CredentialTrafficView | undefined): Map<string, CredentialTrafficEntry> {
  return new Map((view?.credentials ?? []).map((entry) => [entry.credential_id, entry]));
}

/** "97.5%"; '—' without requests in the window. */
export function successRateText(entry: CredentialTrafficEntry | undefined): string {
  return entry && entry.requests > 0 ? percent(entry.success_rate) : '—';
}

/**
 * "≤ 250 ms / ≤ 1 s": p50 and p95, each its histogram bucket's upper bound; "> 120 s" when the
 * quantile is beyond the largest bound; '—' without requests in the window.
 */
export function latencyText(entry: CredentialTrafficEntry | undefined): string {
  if (!entry || entry.requests <= 0) return '—';
  const one = (ms: number | null) => (ms === null ? '> 120 s' : latency(ms));
  return `${one(entry.p50_latency_ms)} / ${one(entry.p95_latency_ms)}`;
}
