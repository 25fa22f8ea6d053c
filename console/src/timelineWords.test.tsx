import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { language } from './test-setup';
import { describeCause, describeState } from './timelineWords';
import { AccountWhy } from './pages/CredentialDrawer';
import { outsideScope, stepPosition, CREDENTIAL_STEPS } from './pages/RouteCheck';
import { resources } from './i18n';

describe('the timeline in words', () => {
  it('says an event and its failure kind in Chinese and in English, never the raw event name', async () => {
    const zh = await language('zh');
    expect(describeCause('transient-failure-recorded.v1/upstream_status', zh)).toBe('记录到一次临时失败（上游返回错误状态）');
    expect(describeState('cooling', zh)).toBe('冷却中');
    const en = await language('en');
    expect(describeCause('transient-failure-recorded.v1/upstream_status', en)).toBe(
      'a temporary failure was recorded（the upstream answered an error status）',
    );
    expect(describeCause('model-cleared.v1', en)).toBe('the model was cleared');
    expect(describeCause('something-new.v2', en)).toBe('something-new.v2');
  });
});

describe('why an account is 异常', () => {
  it('shows the kind, the message as text, and what brings it back', async () => {
    await language('zh');
    const view = render(
      <AccountWhy
        credential={{
          status: 'error',
          account: {
            status: 'error',
            transient_failure_count: 5,
            next_retry_at: null,
            cooldown_until: null,
            last_failure_kind: 'upstream_status',
            last_failure_message: '<b id="x">quota</b>',
            last_failure_response_json: null,
            semantic_failure_streak_count: 0,
            semantic_failure_streak_fingerprint: null,
          } as never,
        }}
      />,
    );
    expect(view.getByTestId('account-why-kind').textContent).toContain('上游返回错误状态');
    expect(view.getByTestId('account-why-message').textContent).toContain('<b id="x">quota</b>');
    expect(document.getElementById('x')).toBeNull();
    expect(view.getByTestId('account-why-back').textContent).toContain('恢复');
    view.unmount();
  });

  it('shows nothing for a healthy account', async () => {
    await language('zh');
    const view = render(<AccountWhy credential={{ status: 'ok', account: null as never }} />);
    expect(view.queryByTestId('account-why')).toBeNull();
    view.unmount();
  });
});

describe('route check', () => {
  it('hides only the groups outside the key scope', () => {
    expect(outsideScope({ reason: 'group_filtered', failover_position: -1 })).toBe(true);
    expect(outsideScope({ reason: 'group_disabled', failover_position: -1 })).toBe(false);
    expect(outsideScope({ reason: null, failover_position: 0 })).toBe(false);
  });

  it('numbers the five credential steps 1-5 by position', () => {
    expect(CREDENTIAL_STEPS.map(stepPosition)).toEqual([0, 1, 2, 3, 4]);
  });

  it('translates every verdict in both languages', () => {
    for (const verdict of ['SELECTED', 'ELIGIBLE', 'COOLING', 'DROPPED', 'NOT_EVALUATED']) {
      expect(resources.zh.translation.routeCheck.verdict[verdict as 'SELECTED']).toMatch(/[\u4e00-\u9fff]/);
      expect(resources.en.translation.routeCheck.verdict[verdict as 'SELECTED']).toMatch(/^[a-z ]+$/);
    }
  });
});
