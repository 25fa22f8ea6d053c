import { describe, expect, it } from 'vitest';
import { attemptNumbers, decisionColor, decisionKey, probeParam, type AttemptStep } from './attempts';
import { resources } from './i18n';

const step = (decision: string, omitted: number | null = null): AttemptStep => ({
  credential_id: 'c',
  model_key: 'm',
  status: 429,
  failure_kind: 'upstream_status',
  failure_scope: 'model',
  latency_ms: 3,
  decision,
  error: null,
  omitted,
});

describe('attempt chain', () => {
  it('numbers attempts across the omission marker', () => {
    expect(attemptNumbers([step('retry_same'), step('omitted', 5), step('success')])).toEqual([1, 2, 7]);
  });

  it('colours each decision apart', () => {
    const colours = ['success', 'retry_same', 'fail_over', 'give_up'].map(decisionColor);
    expect(new Set(colours).size).toBe(4);
    expect(decisionColor('success')).toBe('green');
    expect(decisionColor('give_up')).toBe('red');
  });

  it('has a label for every decision in both languages', () => {
    for (const decision of ['success', 'retry_same', 'fail_over', 'give_up', 'omitted']) {
      const key = decisionKey(decision)!.split('.');
      for (const language of ['zh', 'en'] as const) {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const label = key.reduce((node: any, part) => node?.[part], resources[language].translation);
        expect(typeof label, `${language} ${decision}`).toBe('string');
      }
    }
    expect(decisionKey('something_newer')).toBeNull();
  });

  it('maps the probe filter to the API query', () => {
    expect(probeParam('only')).toBe('true');
    expect(probeParam('hide')).toBe('false');
    expect(probeParam(undefined)).toBeUndefined();
  });
});
