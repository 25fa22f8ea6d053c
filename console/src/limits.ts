import type { TFunction } from 'i18next';
import type { BudgetDuration, CredentialLimits, Limits } from './api/client';

export const BUDGET_DURATIONS: readonly BudgetDuration[] = ['1h', '1d', '7d', '30d', '1mo'];

export const LIMIT_FIELDS = ['rpm_limit', 'tpm_limit', 'max_parallel_requests', 'max_budget', 'budget_duration'] as const;
export const CREDENTIAL_LIMIT_FIELDS = ['rpm_limit', 'max_parallel_requests'] as const;

export const NO_LIMITS: Limits = { rpm_limit: null, tpm_limit: null, max_parallel_requests: null, max_budget: null, budget_duration: null };
export const NO_CREDENTIAL_LIMITS: CredentialLimits = { rpm_limit: null, max_parallel_requests: null };

/** A form value as the API wants it: an empty field (undefined, null, '') is null, "unlimited". */
function orNull<T>(value: T | undefined | null | ''): T | null {
  return value === undefined || value === null || value === '' ? null : value;
}

/** The limits a form holds, every field present (the API's shape; a cleared field is null). */
export function limitsFromForm(values: Partial<Record<keyof Limits, unknown>> | undefined | null): Limits {
  const v = values ?? {};
  return {
    rpm_limit: orNull(v.rpm_limit as number | null),
    tpm_limit: orNull(v.tpm_limit as number | null),
    max_parallel_requests: orNull(v.max_parallel_requests as number | null),
    max_budget: orNull(v.max_budget as number | null),
    budget_duration: orNull(v.budget_duration as BudgetDuration | null),
  };
}

export function credentialLimitsFromForm(values: Partial<Record<keyof CredentialLimits, unknown>> | undefined | null): CredentialLimits {
  const v = values ?? {};
  return { rpm_limit: orNull(v.rpm_limit as number | null), max_parallel_requests: orNull(v.max_parallel_requests as number | null) };
}

/** True when nothing is limited (a view without limits counts as unlimited). */
export function unlimited(limits: Partial<Limits> | Partial<CredentialLimits> | null | undefined): boolean {
  return !limits || Object.values(limits).every((value) => value === null || value === undefined);
}

/** Whether two limits differ in any field (absent and null are the same: unlimited). */
export function limitsChanged<T extends object>(before: T | null | undefined, after: T): boolean {
  const old = (before ?? {}) as Record<string, unknown>;
  return Object.entries(after).some(([field, value]) => (old[field] ?? null) !== (value ?? null));
}

export function formatUsd(amount: number | null | undefined): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return '—';
  const digits = amount !== 0 && Math.abs(amount) < 1 ? 4 : 2;
  return `$${amount.toFixed(digits)}`;
}

/** 1200 → 1.2k, 2000000 → 2M: limits read at a glance in a table cell. */
export function compactNumber(value: number): string {
  const trim = (n: number) => String(Number(n.toFixed(1)));
  if (value >= 1_000_000_000) return `${trim(value / 1_000_000_000)}G`;
  if (value >= 1_000_000) return `${trim(value / 1_000_000)}M`;
  if (value >= 1_000) return `${trim(value / 1_000)}k`;
  return String(value);
}

/** One line per set limit, e.g. `60 rpm · 100k tpm · 4 parallel · $50.00 / 1 day`; `unlimited` when none is set. */
export function limitsSummary(limits: Partial<Limits> | null | undefined, t: TFunction): string {
  if (unlimited(limits)) return t('limits.unlimited');
  const l = limits!;
  const parts: string[] = [];
  if (l.rpm_limit != null) parts.push(t('limits.rpmShort', { value: compactNumber(l.rpm_limit) }));
  if (l.tpm_limit != null) parts.push(t('limits.tpmShort', { value: compactNumber(l.tpm_limit) }));
  if (l.max_parallel_requests != null) parts.push(t('limits.parallelShort', { value: compactNumber(l.max_parallel_requests) }));
  if (l.max_budget != null) {
    parts.push(
      l.budget_duration
        ? t('limits.budgetShort', { value: formatUsd(l.max_budget), duration: t(`limits.durations.${l.budget_duration}`) })
        : t('limits.budgetLifetime', { value: formatUsd(l.max_budget) }),
    );
  }
  return parts.join(' · ');
}

/** The share of the budget spent, 0..100 (capped), or null without a budget. A budget of 0 is spent at once. */
export function budgetPercent(spendUsd: number, maxBudget: number | null | undefined): number | null {
  if (maxBudget === null || maxBudget === undefined) return null;
  if (maxBudget <= 0) return 100;
  return Math.min(100, Math.max(0, (spendUsd / maxBudget) * 100));
}

/** What may still be spent in this window (never below 0), or null without a budget. */
export function headroomUsd(spendUsd: number, maxBudget: number | null | undefined): number | null {
  if (maxBudget === null || maxBudget === undefined) return null;
  return Math.max(0, maxBudget - spendUsd);
}

/**
 * The form fields a `validation.limits` message is about: every limits field it names (the
 * route-core messages name theirs), else the first one so the error still shows by the limits.
 */
export function limitsFieldsInMessage(message: string): string[][] {
  const named = LIMIT_FIELDS.filter((field) => new RegExp(`\\b${field}\\b`).test(message));
  return (named.length > 0 ? named : ['rpm_limit']).map((field) => ['limits', field]);
}

/**
 * The limits to send, or undefined to leave them out: on create only when something is limited, on
 * edit only when a field changed (so saving an unrelated field never rewrites them).
 */
export function limitsToSend<T extends object>(after: T, before: T | null | undefined, creating: boolean): T | undefined {
  if (creating) return unlimited(after as Partial<Limits>) ? undefined : after;
  return limitsChanged(before, after) ? after : undefined;
}
