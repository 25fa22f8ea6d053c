import { describe, expect, it } from 'vitest';
import type { ModelView } from './api/client';
import { authUnavailable, callbackBody, clockSkew, fieldsForCode, formatDuration, modelDisplayName, modelsToClear, remainingSeconds, statusTag } from './health';
import { resources } from './i18n';
import { language } from './test-setup';

function model(overrides: Partial<ModelView>): ModelView {
  return {
    model_key: 'upstream-sol',
    display_name: 'upstream-sol',
    aliases: [],
    mapping_removed: false,
    status: 'ok',
    has_row: false,
    available: true,
    reason: null,
    cooldown_until: null,
    remaining_cooldown_seconds: null,
    transient_failure_count: 0,
    semantic_failure_streak_count: 0,
    last_failure_kind: null,
    last_failure_message: null,
    included_in_clear_all: false,
    ...overrides,
  } as ModelView;
}

describe('status tag', () => {
  it('shows 错误 N 次 while the failure count is above 0', async () => {
    const t = await language('zh');
    expect(statusTag('ok', 1, t)).toBe('错误 1 次');
    expect(statusTag('warning', 3, t)).toBe('错误 3 次');
    expect(statusTag('ok', 0, t)).toBe('正常');
  });

  it('never masks the terminal states revoked, error and paused with the count', async () => {
    const t = await language('zh');
    expect(statusTag('revoked', 4, t)).toBe('已吊销');
    expect(statusTag('error', 4, t)).toBe('异常');
    expect(statusTag('paused', 4, t)).toBe('已暂停');
  });

  it('uses the spec glosses in English', async () => {
    const t = await language('en');
    expect(statusTag('ok', 1, t)).toBe('1 error');
    expect(statusTag('ok', 2, t)).toBe('2 errors');
    expect(t('coolingBadge', { count: 7 })).toBe('cooling for 7 seconds');
    expect(t('modelsUnavailable', { count: 2 })).toBe('2 models unavailable');
    expect(t('mappingRemoved')).toBe('mapping removed');
  });

  it('uses the spec labels verbatim in Chinese', async () => {
    const t = await language('zh');
    expect(t('coolingBadge', { count: 7 })).toBe('冷却 7 秒');
    expect(t('modelsUnavailable', { count: 1 })).toBe('模型 1 不可用');
    expect(t('credential.failureHandling')).toBe('故障处理');
    expect(t('credential.cooldownSeconds')).toBe('失败冷却（秒）');
    expect(t('credential.modelStatus')).toBe('模型状态');
    expect(t('credential.clearAll')).toBe('全部解除');
    expect(t('reminders.budget_pool')).toBe(
      '友情提醒：当前中转站公共池额度耗尽，并非你个人额度耗尽，请等待下一次公共池补充额度。',
    );
    expect(t('reminders.sensitive_words')).toBe(
      '友情提醒：当前中转站似乎对项目存在关键词检测，您的项目可能存在敏感词，也不排除是中转站误判。',
    );
  });
});

describe('translations', () => {
  function keys(value: unknown, prefix = ''): string[] {
    if (typeof value !== 'object' || value === null) return [prefix];
    return Object.entries(value).flatMap(([name, child]) => keys(child, prefix ? `${prefix}.${name}` : name));
  }

  it('every Chinese label has an English one and back', () => {
    expect(keys(resources.en.translation).sort()).toEqual(keys(resources.zh.translation).sort());
  });
});

describe('countdowns', () => {
  const now = Date.parse('2026-12-01T10:00:00Z');

  it('rounds the time left up and ends at zero', () => {
    expect(remainingSeconds('2026-12-01T10:00:09.200Z', now)).toBe(10);
    expect(remainingSeconds('2026-12-01T10:00:00Z', now)).toBeNull();
    expect(remainingSeconds(null, now)).toBeNull();
  });

  it('measures on the server clock when the browser clock is off', () => {
    const skew = clockSkew('2026-12-01T10:00:05Z', now);
    expect(skew).toBe(5000);
    expect(remainingSeconds('2026-12-01T10:00:10Z', now, skew)).toBe(5);
  });
});

describe('model names', () => {
  it('lists client aliases in parentheses and marks a removed mapping', async () => {
    const zh = await language('zh');
    expect(modelDisplayName('upstream-sol', ['gpt-5.6-sol'], false, zh)).toBe('upstream-sol (gpt-5.6-sol)');
    expect(modelDisplayName('upstream-old', [], true, zh)).toBe('upstream-old (已移除映射)');
    expect(modelDisplayName('glm-5.3', ['glm-5.3'], false, zh)).toBe('glm-5.3');
    const en = await language('en');
    expect(modelDisplayName('upstream-old', [], true, en)).toBe('upstream-old (mapping removed)');
  });
});

describe('全部解除', () => {
  it('asks only for models with something to clear and never for a paused one', () => {
    const models = [
      model({ model_key: 'cooling', has_row: true, reason: 'cooling', transient_failure_count: 1, included_in_clear_all: true }),
      model({ model_key: 'error', has_row: true, status: 'error', reason: 'error', included_in_clear_all: true }),
      model({ model_key: 'paused', has_row: true, status: 'paused', reason: 'paused', transient_failure_count: 2, included_in_clear_all: true }),
      model({ model_key: 'healthy' }),
    ];
    expect(modelsToClear(models)).toEqual(['cooling', 'error']);
    expect(modelsToClear([model({ model_key: 'healthy' })])).toEqual([]);
  });
});

describe('validation codes as field errors', () => {
  it('places a failure-policy code on the field its message names', () => {
    expect(fieldsForCode('validation.route_credential_failure_policy', 'cooldown_seconds must be 1..86400')).toEqual([
      ['failure_policy', 'cooldown_seconds'],
    ]);
    expect(fieldsForCode('validation.route_credential_failure_policy', 'retry_count must be 0..10')).toEqual([
      ['failure_policy', 'retry_count'],
    ]);
  });

  it('places the recovery codes on the recovery fields', () => {
    expect(fieldsForCode('validation.recovery_times_required', 'x')).toEqual([['recovery', 'times']]);
    expect(fieldsForCode('validation.recovery_times', 'x')).toEqual([['recovery', 'times']]);
    expect(fieldsForCode('validation.recovery_probe_interval', 'x')).toEqual([['recovery', 'interval_minutes']]);
    expect(fieldsForCode('validation.weight', 'x')).toEqual([['weight']]);
    expect(fieldsForCode('unauthorized', 'x')).toEqual([]);
  });
});

describe('official account authorization', () => {
  it('is unusable when expired, never authorized or revoked; api keys and usable tokens are not', () => {
    const oauth = (state: string) => ({ state, access_expires_at: null, account_id: null, refreshed_at: null, last_refresh_error: null });
    expect(authUnavailable({ kind: 'official', status: 'ok', oauth: oauth('expired') })).toBe(true);
    expect(authUnavailable({ kind: 'official', status: 'ok', oauth: oauth('unauthorized') })).toBe(true);
    expect(authUnavailable({ kind: 'official', status: 'revoked', oauth: oauth('authorized') })).toBe(true);
    expect(authUnavailable({ kind: 'official', status: 'ok', oauth: oauth('authorized') })).toBe(false);
    expect(authUnavailable({ kind: 'official', status: 'ok', oauth: null })).toBe(false);
    expect(authUnavailable({ kind: 'api', status: 'revoked', oauth: null })).toBe(false);
  });

  it('formats the expiry countdown by its largest units', () => {
    expect(formatDuration(9)).toBe('9s');
    expect(formatDuration(249)).toBe('4m 09s');
    expect(formatDuration(7 * 3600 + 5 * 60 + 3)).toBe('7h 05m');
    expect(formatDuration(2 * 86400 + 3 * 3600)).toBe('2d 3h');
    expect(formatDuration(-5)).toBe('0s');
  });

  it('sends a pasted callback as the URL, a bare code with the flow state, a code#state as it is', () => {
    expect(callbackBody(' https://x.test/cb?code=a&state=s ', 'st')).toEqual({ callback_url: 'https://x.test/cb?code=a&state=s' });
    expect(callbackBody('abc', 'st')).toEqual({ code: 'abc', state: 'st' });
    expect(callbackBody('abc#st', 'st')).toEqual({ code: 'abc#st' });
    expect(callbackBody('abc', null)).toEqual({ code: 'abc' });
  });
});
