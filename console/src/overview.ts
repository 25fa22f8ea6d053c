import { useEffect, useState } from 'react';

/** GET /admin/v1/overview (route-core Overview). */
export interface OverviewMinute {
  at: string;
  requests: number;
  tokens: number;
  failures: number;
}
export interface OverviewTop {
  key: string | null;
  requests: number;
  tokens: number;
  failures: number;
}
export interface OverviewView {
  from: string;
  to: string;
  minutes: OverviewMinute[];
  requests: number;
  failures: number;
  input_tokens: number;
  output_tokens: number;
  success_rate: number | null;
  requests_per_minute: number;
  tokens_per_minute: number;
  p50_latency_ms: number | null;
  p95_latency_ms: number | null;
  mean_ttft_ms: number | null;
  failovers: number;
  top_models: OverviewTop[];
  top_keys: OverviewTop[];
}

export const OVERVIEW_WINDOWS = ['5m', '15m', '1h', '6h', '24h'] as const;

/** A rate per minute as shown: one decimal under ten, whole above. */
export function perMinute(value: number): string {
  if (!Number.isFinite(value) || value <= 0) return '0';
  return value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US');
}

/** A success rate as a percentage with one decimal; '—' without traffic. */
export function percent(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return '—';
  return `${(rate * 100).toFixed(1)}%`;
}

/** A latency from the histogram: its bucket's upper bound, so shown as "≤ N ms"; '—' when unknown. */
export function latency(ms: number | null | undefined, approximate = true): string {
  if (ms === null || ms === undefined) return '—';
  const text = ms >= 1000 ? `${(ms / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} s` : `${ms} ms`;
  return approximate ? `≤ ${text}` : text;
}

/** Heights (0–1) of the per-minute bars, relative to the busiest minute. */
export function barHeights(values: number[]): number[] {
  const max = Math.max(0, ...values);
  return values.map((v) => (max === 0 ? 0 : v / max));
}

/** Whether the page is visible: polling pauses while the tab is hidden and resumes on return. */
export function usePageVisible(): boolean {
  const [visible, setVisible] = useState(() => typeof document === 'undefined' || document.visibilityState !== 'hidden');
  useEffect(() => {
    const update = () => setVisible(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return visible;
}
