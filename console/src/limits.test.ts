import { describe, expect, it } from 'vitest';
import { fieldsForCode } from './health';
import {
  NO_LIMITS,
  budgetPercent,
  compactNumber,
  credentialLimitsFromForm,
  formatUsd,
  headroomUsd,
  limitsChanged,
  limitsFromForm,
  limitsSummary,
  limitsToSend,
  unlimited,
} from './limits';
import { LIMIT_REASON_CODES, REASON_CODES, allReasonCodes, isLimitCode, reasonCode } from './reasonCodes';
import { language } from './test-setup';

describe('limits in a form', () => {
  it('sends every field, an empty one as null (unlimited)', () => {
    expect(limitsFromForm({ rpm_limit: 60, tpm_limit: undefined, max_parallel_requests: '' as never, max_budget: 0, budget_duration: '1d' })).toEqual({
      rpm_limit: 60,
      tpm_limit: null,
      max_parallel_requests: null,
      max_budget: 0,
      budget_duration: '1d',
    });
    expect(limitsFromForm(undefined)).toEqual(NO_LIMITS);
    expect(credentialLimitsFromForm({ rpm_limit: null, max_parallel_requests: 4 })).toEqual({ rpm_limit: null, max_parallel_requests: 4 });
  });

  it('keeps a budget of 0 (nothing may be spent) apart from no budget', () => {
    expect(unlimited(limitsFromForm({ max_budget: 0 }))).toBe(false);
    expect(unlimited(limitsFromForm({}))).toBe(true);
    expect(unlimited(null)).toBe(true);
  });

  it('sends limits on create only when something is limited, on edit only when a field changed', () => {
    expect(limitsToSend(NO_LIMITS, null, true)).toBeUndefined();
    expect(limitsToSend({ ...NO_LIMITS, rpm_limit: 5 }, null, true)).toEqual({ ...NO_LIMITS, rpm_limit: 5 });
    expect(limitsToSend({ ...NO_LIMITS, rpm_limit: 5 }, { ...NO_LIMITS, rpm_limit: 5 }, false)).toBeUndefined();
    // a view without limits (absent) and a form of nulls are the same: nothing to send
    expect(limitsToSend(NO_LIMITS, undefined, false)).toBeUndefined();
    // clearing a field is a change: the field goes as null
    expect(limitsToSend(NO_LIMITS, { ...NO_LIMITS, max_budget: 10, budget_duration: '1mo' }, false)).toEqual(NO_LIMITS);
    expect(limitsChanged({ rpm_limit: 1 }, { rpm_limit: 2 })).toBe(true);
  });
});

describe('limits summary', () => {
  it('reads each set limit, in Chinese and English', async () => {
    const limits = { rpm_limit: 60, tpm_limit: 100_000, max_parallel_requests: 4, max_budget: 50, budget_duration: '1d' as const };
    const zh = await language('zh');
    expect(limitsSummary(limits, zh)).toBe('60 rpm · 100k tpm · 并发 4 · $50.00 / 1 天');
    expect(limitsSummary(NO_LIMITS, zh)).toBe('不限');
    expect(limitsSummary({ ...NO_LIMITS, max_budget: 0.5 }, zh)).toBe('$0.5000（终身）');
    const en = await language('en');
    expect(limitsSummary(limits, en)).toBe('60 rpm · 100k tpm · 4 parallel · $50.00 / 1 day');
    expect(limitsSummary(null, en)).toBe('unlimited');
    expect(limitsSummary({ ...NO_LIMITS, max_budget: 12, budget_duration: '1mo' }, en)).toBe('$12.00 / 1 calendar month');
  });

  it('shortens large numbers', () => {
    expect(compactNumber(999)).toBe('999');
    expect(compactNumber(1200)).toBe('1.2k');
    expect(compactNumber(2_000_000)).toBe('2M');
    expect(compactNumber(1_000_000_000_000)).toBe('1000G');
  });
});

describe('spend against the budget', () => {
  it('is a share of the budget, capped at 100, and spent at once with a budget of 0', () => {
    expect(budgetPercent(1.2, 5)).toBeCloseTo(24);
    expect(budgetPercent(7, 5)).toBe(100);
    expect(budgetPercent(0, 0)).toBe(100);
    expect(budgetPercent(3, null)).toBeNull();
  });

  it('leaves what may still be spent, never below 0', () => {
    expect(headroomUsd(1.25, 5)).toBeCloseTo(3.75);
    expect(headroomUsd(9, 5)).toBe(0);
    expect(headroomUsd(9, null)).toBeNull();
  });

  it('formats USD with cents, and small amounts to the hundredth of a cent', () => {
    expect(formatUsd(12)).toBe('$12.00');
    expect(formatUsd(0.0123)).toBe('$0.0123');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(null)).toBe('—');
  });
});

describe('validation codes of teams and limits', () => {
  it('places validation.limits on the field its message names', () => {
    expect(fieldsForCode('validation.limits', 'rpm_limit must be a whole number 1..10000000 or null')).toEqual([['limits', 'rpm_limit']]);
    expect(fieldsForCode('validation.limits', 'tpm_limit must be 1..1000000000000')).toEqual([['limits', 'tpm_limit']]);
    expect(fieldsForCode('validation.limits', 'budget_duration needs max_budget')).toEqual([
      ['limits', 'max_budget'],
      ['limits', 'budget_duration'],
    ]);
    expect(fieldsForCode('validation.limits', 'max_parallel_requests must be 1..100000')).toEqual([['limits', 'max_parallel_requests']]);
    // a message naming no field still shows by the limits
    expect(fieldsForCode('validation.limits', 'limits must be an object')).toEqual([['limits', 'rpm_limit']]);
  });

  it('places the team codes on the team fields; team.has_keys is no field error', () => {
    expect(fieldsForCode('validation.team_weight', 'weight must be 1..1000')).toEqual([['weight']]);
    expect(fieldsForCode('validation.team_id', 'no such team')).toEqual([['team_id']]);
    expect(fieldsForCode('team.has_keys', 'x')).toEqual([]);
  });
});

describe('the limit reason codes', () => {
  it('have their own text in both languages, the spec codes keep the spec text', () => {
    for (const code of ['rate_limit_exceeded', 'concurrency_limit_exceeded', 'budget_exceeded', 'limits_unavailable', 'credential_full']) {
      const zh = reasonCode(code, 'zh')!;
      const en = reasonCode(code, 'en')!;
      expect(zh.meaning).toMatch(/[\u4e00-\u9fff]/);
      expect(zh.howToHandle).toMatch(/[\u4e00-\u9fff]/);
      expect(en.meaning).not.toMatch(/[\u4e00-\u9fff]/);
      expect(en.meaning).not.toBe(zh.meaning);
      expect(isLimitCode(code)).toBe(true);
    }
    expect(reasonCode('budget_exceeded', 'zh')!.meaning).toContain('max_budget');
    expect(reasonCode('limits_unavailable', 'en')!.meaning).toContain('503');
    expect(reasonCode('credential_cooldown', 'zh')).toEqual(REASON_CODES.find((row) => row.code === 'credential_cooldown'));
    expect(isLimitCode('credential_cooldown')).toBe(false);
    expect(reasonCode(null)).toBeUndefined();
  });

  it('are listed after the spec table, once each', () => {
    const codes = allReasonCodes('zh').map((row) => row.code);
    expect(codes).toHaveLength(REASON_CODES.length + LIMIT_REASON_CODES.length);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.slice(-5)).toEqual(LIMIT_REASON_CODES.map((row) => row.code));
  });
});
