import { describe, expect, it } from 'vitest';
import { act, fireEvent, render } from '@testing-library/react';
import type { CredentialHealthView } from '../api/client';
import { language } from '../test-setup';
import { StatusCell, UnavailableModelsPanel, secondsLeft, stillUnavailable } from './Credentials';

const MARKUP = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

function health(overrides: Partial<CredentialHealthView> = {}): CredentialHealthView {
  return {
    id: 'primary',
    name: 'primary',
    platform: 'openai',
    kind: 'api',
    enabled: true,
    in_pool: true,
    status: 'ok',
    status_tag: '错误 1 次',
    failure_count: 1,
    cooldown_badge: null,
    cooldown_remaining_seconds: null,
    cooldown_until: null,
    unavailable_models_badge: '模型 1 不可用',
    unavailable_models: [
      {
        model_key: 'upstream-sol',
        display_name: 'upstream-sol (gpt-5.6-sol)',
        aliases: ['gpt-5.6-sol'],
        mapping_removed: false,
        reason: 'cooling',
        remaining_seconds: 9,
        last_failure_message: MARKUP,
      },
    ],
    reminders: [],
    last_failure_kind: 'upstream_status',
    last_failure_message: MARKUP,
    ...overrides,
  } as CredentialHealthView;
}

describe('the status cell', () => {
  it('shows 错误 1 次 and the orange 模型 1 不可用, without a 冷却 badge for a model-only cooldown', async () => {
    await language('zh');
    const view = render(<StatusCell health={health()} receivedAt={Date.now()} />);
    expect(view.getByTestId('status-tag').textContent).toBe('错误 1 次');
    expect(view.getByTestId('models-badge').textContent).toBe('模型 1 不可用');
    expect(view.queryByTestId('cooldown-badge')).toBeNull();
    view.unmount();
  });

  it('shows the account cooldown as 冷却 N 秒, in English as cooling for N seconds', async () => {
    await language('en');
    const view = render(
      <StatusCell health={health({ cooldown_remaining_seconds: 30, unavailable_models: [] })} receivedAt={Date.now()} />,
    );
    expect(view.getByTestId('cooldown-badge').textContent).toBe('cooling for 30 seconds');
    expect(view.getByTestId('status-tag').textContent).toBe('1 error');
    expect(view.queryByTestId('models-badge')).toBeNull();
    view.unmount();
  });
});

describe('the status tag panel', () => {
  it('opens on hover with the last failure message as text and the reminders', async () => {
    await language('zh');
    const view = render(
      <StatusCell
        health={health({ reminders: [{ code: 'sensitive_words', text: 'server text' }] })}
        receivedAt={Date.now()}
      />,
    );
    fireEvent.mouseEnter(view.getByTestId('status-tag'));
    const message = await view.findByTestId('status-last-failure', undefined, { timeout: 10_000 });
    expect(message.textContent).toBe(MARKUP);
    expect(document.querySelector('[data-testid=status-panel] img')).toBeNull();
    expect(document.querySelector('[data-testid=status-panel] script')).toBeNull();
    expect((await view.findByTestId('reminder-sensitive_words')).textContent).toBe(
      '友情提醒：当前中转站似乎对项目存在关键词检测，您的项目可能存在敏感词，也不排除是中转站误判。',
    );
    view.unmount();
  }, 30_000);
});

describe('the 模型 N 不可用 panel', () => {
  it('names the upstream model with its aliases, the reason and the time left', async () => {
    await language('zh');
    const now = Date.now();
    const view = render(<UnavailableModelsPanel models={health().unavailable_models} receivedAt={now} now={now} />);
    const row = view.getByTestId('models-panel-row');
    expect(row.textContent).toContain('upstream-sol (gpt-5.6-sol)');
    expect(row.textContent).toContain('冷却中');
    expect(view.getByTestId('models-panel-remaining').textContent).toBe('剩余 9 秒');
    view.unmount();
  });

  it('renders a failure message with markup as text', async () => {
    await language('zh');
    const now = Date.now();
    const view = render(<UnavailableModelsPanel models={health().unavailable_models} receivedAt={now} now={now} />);
    expect(view.getByTestId('models-panel-message').textContent).toBe(MARKUP);
    expect(view.container.querySelector('img')).toBeNull();
    expect(view.container.querySelector('script')).toBeNull();
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
    view.unmount();
  });
});

describe('live countdowns', () => {
  it('count down from the moment the answer arrived and drop a cooldown that ran out', () => {
    const received = 1_000_000;
    expect(secondsLeft(9, received, received)).toBe(9);
    expect(secondsLeft(9, received, received + 4_500)).toBe(5);
    expect(secondsLeft(9, received, received + 9_000)).toBeNull();
    const models = health().unavailable_models;
    expect(stillUnavailable(models, received, received + 1_000)).toHaveLength(1);
    expect(stillUnavailable(models, received, received + 10_000)).toHaveLength(0);
    const paused = [{ ...models[0], reason: 'paused', remaining_seconds: null as unknown as number }];
    expect(stillUnavailable(paused, received, received + 10_000)).toHaveLength(1);
  });

  it('the badge disappears without a reload once the model cooldown ran out', async () => {
    await language('zh');
    vi.useFakeTimers();
    try {
      const view = render(<StatusCell health={health()} receivedAt={Date.now()} />);
      expect(view.getByTestId('models-badge').textContent).toBe('模型 1 不可用');
      await act(async () => {
        vi.advanceTimersByTime(10_000);
      });
      expect(view.queryByTestId('models-badge')).toBeNull();
      view.unmount();
    } finally {
      vi.useRealTimers();
    }
  });
});
