import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, currentToken, modelPath, setToken } from './client';

afterEach(() => {
  vi.unstubAllGlobals();
  setToken(null);
});

describe('the admin API client', () => {
  it('sends the token as a bearer header, never in the URL, and keeps it out of localStorage', async () => {
    const fetchMock = vi.fn(async () => new Response('[]', { status: 200, headers: { 'Content-Type': 'application/json' } }));
    vi.stubGlobal('fetch', fetchMock);
    setToken('secret-admin-token');
    await api('GET', '/credentials');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/admin/v1/credentials');
    expect(url).not.toContain('secret-admin-token');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer secret-admin-token');
    expect(init.credentials).toBe('omit');
    expect(sessionStorage.getItem('console.admin-token')).toBe('secret-admin-token');
    expect(JSON.stringify({ ...localStorage })).not.toContain('secret-admin-token');
  });

  it('forgets the token on sign-out', () => {
    setToken('t');
    setToken(null);
    expect(currentToken()).toBeNull();
    expect(sessionStorage.getItem('console.admin-token')).toBeNull();
  });

  it('turns the error shape into an ApiError with its code and type', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        new Response(
          JSON.stringify({ error: { code: 'validation.weight', message: 'weight must be 1..100', type: 'invalid_request' } }),
          { status: 400 },
        ),
      ),
    );
    await expect(api('PATCH', '/credentials/x', { weight: 0 })).rejects.toMatchObject({
      status: 400,
      code: 'validation.weight',
      message: 'weight must be 1..100',
      type: 'invalid_request',
    });
    await expect(api('PATCH', '/credentials/x', {})).rejects.toBeInstanceOf(ApiError);
  });

  it('an answer without the error body is http_<status> of type http_error', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' })));
    await expect(api('GET', '/credentials')).rejects.toMatchObject({
      status: 502,
      code: 'http_502',
      message: 'Bad Gateway',
      type: 'http_error',
    });
  });

  it('encodes each segment of a model key that contains a slash', () => {
    expect(modelPath('c 1', 'meta-llama/Llama 4', 'pause')).toBe('/credentials/c%201/models/meta-llama/Llama%204/pause');
  });
});
