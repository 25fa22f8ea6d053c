import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, waitFor } from '@testing-library/react';
import { language } from '../test-setup';
import { setToken } from '../api/client';
import { CredentialDrawer } from './CredentialDrawer';

afterEach(() => {
  vi.unstubAllGlobals();
  setToken(null);
});

function input(id: string) {
  return document.getElementById(id) as HTMLInputElement;
}

async function fillBasics() {
  fireEvent.change(input('credential-name-input'), { target: { value: 'c1' } });
  fireEvent.change(input('credential-base-url'), { target: { value: 'https://up.example' } });
  fireEvent.change(input('credential-secret'), { target: { value: 'sk-000000000000' } });
}

function fieldError(id: string) {
  const item = input(id).closest('.ant-form-item');
  return item?.querySelector('.ant-form-item-explain-error')?.textContent ?? '';
}

describe('the credential form', () => {
  it('refuses manual weight 0 with the API code on the field, and clears it as soon as the value changes', async () => {
    await language('zh');
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    setToken('t');
    const view = render(<CredentialDrawer credentialId={null} groups={[]} onClose={() => {}} onChanged={() => {}} />);
    await fillBasics();
    fireEvent.click(view.getByText('手动'));
    await waitFor(() => expect(input('credential-weight')).toBeTruthy());
    fireEvent.change(input('credential-weight'), { target: { value: '0' } });
    await act(async () => {
      fireEvent.click(view.getByTestId('credential-save'));
    });
    await waitFor(() => expect(fieldError('credential-weight')).toContain('validation.weight'));
    expect(input('credential-weight').value).toBe('0');
    expect(fetchMock.mock.calls.filter((call) => (call as unknown as [string, RequestInit])[1]?.method === 'POST')).toHaveLength(0);
    fireEvent.change(input('credential-weight'), { target: { value: '5' } });
    await waitFor(() => expect(fieldError('credential-weight')).toBe(''));
    view.unmount();
  });

  it('an error on the hidden 故障处理 tab selects and marks it; a refused save then a fix clears the error', async () => {
    await language('zh');
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) =>
      init?.method === 'POST'
        ? new Response(
            JSON.stringify({
              error: { code: 'validation.route_credential_failure_policy', message: 'retry_interval_ms must be 0..60000', type: 'invalid_request' },
            }),
            { status: 400 },
          )
        : new Response('{}', { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    setToken('t');
    const view = render(<CredentialDrawer credentialId={null} groups={[]} onClose={() => {}} onChanged={() => {}} />);
    await fillBasics();
    expect(view.queryByTestId('tab-failure-error')).toBeNull();
    await act(async () => {
      fireEvent.click(view.getByTestId('credential-save'));
    });
    await waitFor(() => expect(fieldError('policy-retry-interval')).toContain('validation.route_credential_failure_policy'));
    expect(view.getByTestId('tab-failure-error')).toBeTruthy();
    const failureTab = view.getByTestId('tab-failure').closest('.ant-tabs-tab');
    expect(failureTab?.className).toContain('ant-tabs-tab-active');
    fireEvent.change(input('policy-retry-interval'), { target: { value: '100' } });
    await waitFor(() => expect(fieldError('policy-retry-interval')).toBe(''));
    await waitFor(() => expect(view.queryByTestId('tab-failure-error')).toBeNull());
    view.unmount();
  });
});
