import { query } from './api/client';

/** The export's longest range (the API refuses more): 31 days. */
export const EXPORT_MAX_DAYS = 31;

/**
 * The CSV export of the request log for the usage page's filters: the API needs a bounded range, so
 * a missing end is now and a missing or too early start is the end minus 31 days.
 */
export function exportQuery(filters: Record<string, string | number | boolean | undefined>, nowMs: number): string {
  const to = filters.to ? Date.parse(String(filters.to)) : nowMs;
  const earliest = to - EXPORT_MAX_DAYS * 86_400_000;
  const sentFrom = filters.from ? Date.parse(String(filters.from)) : earliest;
  const from = Math.max(sentFrom, earliest);
  return `/usage/export${query({ ...filters, kind: 'requests', format: 'csv', from: new Date(from).toISOString(), to: new Date(to).toISOString() })}`;
}
