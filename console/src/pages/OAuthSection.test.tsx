import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, waitFor } from '@testing-library/react';
import type { OAuthView } from '../api/client';
import { language } from '../test-setup';
import { AuthUnavailableTag } from './Credentials';
import { OAuthSection } from './OAuthSection';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function auth(overrides: Partial<OAuthView> = {}): OAuthView {
  return {
    state: 'authorized',
    access_expires_at: new Date(Date.now() + 65_000).toISOString(),
    account_id: 'acct-1',
    refreshed_at: new Date().toISOString(),
    last_refresh_error: null,
    ...overrides,
  };
}

function answering(...bodies: { status: number; body: unknown }[]) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  let next = 0;
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ url, method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : undefined });
    const answer = bodies[Math.min(next++, bodies.length - 1)];
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

describe('the authorization section of an official credential', () => {
  it('shows the state, the live expiry countdown and the last refresh error as text', async () => {
    await language('en');
    vi.useFakeTimers();
    const markup = '<img src=x onerror="window.__pwned=1">';
    const view = render(
      <OAuthSection credentialId="c1" kind="official" status="ok" oauth={auth({ last_refresh_error: markup })} onChanged={() => {}} />,
    );
    expect(view.getByTestId('oauth-state').textContent).toBe('authorized');
    expect(view.getByTestId('oauth-expiry').textContent).toBe('expires in 1m 05s');
    await act(async () => {
      vi.advanceTimersByTime(6_000);
    });
    expect(view.getByTestId('oauth-expiry').textContent).toBe('expires in 59s');
    await act(async () => {
      vi.advanceTimersByTime(60_000);
    });
    expect(view.getByTestId('oauth-expiry').textContent).toBe('the access token has expired');
    expect(view.getByTestId('oauth-last-error').textContent).toBe(markup);
    expect(view.container.querySelector('img')).toBeNull();
    expect(view.queryByTestId('oauth-unavailable')).toBeNull();
    view.unmount();
  });

  it('says the account needs reauthorizing when its authorization is unusable, in Chinese too', async () => {
    await language('zh');
    const view = render(
      <OAuthSection credentialId="c1" kind="official" status="ok" oauth={auth({ state: 'expired' })} onChanged={() => {}} />,
    );
    expect(view.getByTestId('oauth-unavailable').textContent).toBe('订阅账号授权已过期 — 请重新授权');
    expect(view.getByTestId('oauth-state').textContent).toBe('已过期');
    view.unmount();
  });

  it('sends the pasted credentials file with PUT and shows the refusal code', async () => {
    await language('en');
    const calls = answering(
      { status: 400, body: { error: { code: 'validation.oauth_refresh_token', message: 'refreshToken is required', type: 'invalid_request' } } },
      { status: 200, body: auth() },
    );
    const changed = vi.fn();
    const view = render(
      <OAuthSection credentialId="c/1" kind="official" status="ok" oauth={auth({ state: 'unauthorized', access_expires_at: null })} onChanged={changed} />,
    );
    const file = '{"claudeAiOauth":{"accessToken":"sk-ant-oat01-x"}}';
    fireEvent.change(view.getByTestId('oauth-paste-input'), { target: { value: file } });
    fireEvent.click(view.getByTestId('oauth-paste-submit'));
    expect((await view.findByTestId('oauth-error')).textContent).toBe('validation.oauth_refresh_token: refreshToken is required');
    expect(calls[0]).toEqual({ url: '/admin/v1/credentials/c%2F1/oauth', method: 'PUT', body: { credentials_json: file } });
    expect(changed).not.toHaveBeenCalled();
    await waitFor(() => expect(view.getByTestId('oauth-paste-submit').className).not.toContain('ant-btn-loading'));
    fireEvent.click(view.getByTestId('oauth-paste-submit'));
    await view.findByTestId('oauth-saved');
    expect(changed).toHaveBeenCalledTimes(1);
    // the pasted tokens do not stay on the page
    expect((view.getByTestId('oauth-paste-input') as HTMLTextAreaElement).value).toBe('');
    view.unmount();
  });

  it('authorizes in the browser: shows the link, then sends the pasted callback URL', async () => {
    await language('en');
    const start = {
      authorize_url: 'https://auth.example.test/oauth/authorize?client_id=c&state=abcdefghijklmnop1234',
      state: 'abcdefghijklmnop1234',
      expires_at: new Date(Date.now() + 600_000).toISOString(),
    };
    const calls = answering({ status: 200, body: start }, { status: 200, body: auth() });
    const changed = vi.fn();
    const view = render(<OAuthSection credentialId="c1" kind="official" status="revoked" oauth={auth({ state: 'expired' })} onChanged={changed} />);
    fireEvent.click(view.getByTestId('oauth-tab-browser'));
    const startButton = await view.findByTestId('oauth-authorize-start');
    expect(startButton.textContent).toBe('Reauthorize');
    fireEvent.click(startButton);
    const link = await view.findByTestId('oauth-authorize-url');
    expect(link.getAttribute('href')).toBe(start.authorize_url);
    expect(calls[0]).toEqual({ url: '/admin/v1/credentials/c1/oauth/authorize', method: 'POST', body: {} });
    fireEvent.change(view.getByTestId('oauth-callback-input'), {
      target: { value: ' http://localhost:1455/auth/callback?code=xyz&state=abcdefghijklmnop1234 ' },
    });
    fireEvent.click(view.getByTestId('oauth-callback-submit'));
    await waitFor(() => expect(changed).toHaveBeenCalledTimes(1));
    expect(calls[1]).toEqual({
      url: '/admin/v1/credentials/c1/oauth/callback',
      method: 'POST',
      body: { callback_url: 'http://localhost:1455/auth/callback?code=xyz&state=abcdefghijklmnop1234' },
    });
    view.unmount();
  }, 30_000);

  it('sends a pasted bare code with the state of the flow it started', async () => {
    await language('en');
    const start = { authorize_url: 'javascript:alert(1)', state: 'abcdefghijklmnop1234', expires_at: new Date(Date.now() + 600_000).toISOString() };
    const calls = answering({ status: 200, body: start }, { status: 200, body: auth() });
    const view = render(<OAuthSection credentialId="c1" kind="official" status="ok" oauth={auth({ state: 'unauthorized' })} onChanged={() => {}} />);
    fireEvent.click(view.getByTestId('oauth-tab-browser'));
    fireEvent.click(await view.findByTestId('oauth-authorize-start'));
    // a URL that is not http(s) is shown but never made a link
    expect((await view.findByTestId('oauth-authorize-url')).getAttribute('href')).toBeNull();
    fireEvent.change(view.getByTestId('oauth-callback-input'), { target: { value: 'the-code' } });
    fireEvent.click(view.getByTestId('oauth-callback-submit'));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1].body).toEqual({ code: 'the-code', state: 'abcdefghijklmnop1234' });
    view.unmount();
  }, 30_000);
});

describe('the credentials list', () => {
  it('labels an official account whose authorization is unusable, and nothing else', async () => {
    await language('en');
    const expired = render(<AuthUnavailableTag credential={{ kind: 'official', status: 'ok', oauth: auth({ state: 'expired' }) }} />);
    expect(expired.getByTestId('auth-unavailable').textContent).toBe('Subscription account authorization has expired — reauthorize');
    expired.unmount();
    for (const credential of [
      { kind: 'official', status: 'ok', oauth: auth() },
      { kind: 'official', status: 'ok', oauth: null },
      { kind: 'api', status: 'revoked', oauth: null },
    ]) {
      const view = render(<AuthUnavailableTag credential={credential} />);
      expect(view.queryByTestId('auth-unavailable')).toBeNull();
      view.unmount();
    }
  });
});
