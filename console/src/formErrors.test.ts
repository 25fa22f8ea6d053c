import { describe, expect, it } from 'vitest';
import { boundsError, changedPaths, tabOfField, tabsWithErrors } from './formErrors';

describe('the API bounds on the client', () => {
  it('refuses a manual weight of 0 or 101 with the API code, never coercing it', () => {
    expect(boundsError('weight', 0)).toBe('validation.weight: weight must be 1..100');
    expect(boundsError('weight', 101)).toBe('validation.weight: weight must be 1..100');
    expect(boundsError('weight', 1)).toBeNull();
    expect(boundsError('weight', 100)).toBeNull();
    expect(boundsError('weight', 2.5)).toContain('validation.weight');
  });

  it('uses the failure policy code and names the field', () => {
    expect(boundsError('failure_policy.cooldown_seconds', 0)).toBe(
      'validation.route_credential_failure_policy: cooldown_seconds must be 1..86400',
    );
    expect(boundsError('failure_policy.retry_count', 11)).toContain('retry_count must be 0..10');
    expect(boundsError('failure_policy.retry_count', 0)).toBeNull();
  });
});

describe('which errors to clear and which tab to show', () => {
  it('lists the nested paths a change touched', () => {
    expect(changedPaths({ weight: 3 })).toEqual([['weight']]);
    expect(changedPaths({ failure_policy: { cooldown_seconds: 5 } })).toEqual([
      ['failure_policy'],
      ['failure_policy', 'cooldown_seconds'],
    ]);
  });

  it('puts failure policy and recovery on the 故障处理 tab', () => {
    expect(tabOfField(['failure_policy', 'cooldown_seconds'])).toBe('failure');
    expect(tabOfField(['recovery', 'times'])).toBe('failure');
    expect(tabOfField(['weight'])).toBe('basic');
    expect(
      tabsWithErrors([
        { name: ['weight'], errors: [] },
        { name: ['failure_policy', 'cooldown_seconds'], errors: ['x'] },
      ]),
    ).toEqual(['failure']);
  });
});
