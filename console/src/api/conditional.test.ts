import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, setToken, validatorCount } from './client';

afterEach(() => {
  vi.unstubAllGlobals();
  setToken(null);
});

describe('conditional GETs', () => {
  it('sends the last ETag back and reuses the body on a 304', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(new Response('[{"id":"a"}]', { status: 200, headers: { ETag: '"v1"' } }))
      .mockResolvedValueOnce(new Response(null, { status: 304, headers: { ETag: '"v1"' } }));
    vi.stubGlobal('fetch', fetchMock);
    setToken('t');
    const first = await api<{ id: string }[]>('GET', '/credentials');
    const second = await api<{ id: string }[]>('GET', '/credentials');
    const [, init] = fetchMock.mock.calls[1] as unknown as [string, RequestInit];
    expect((init.headers as Record<string, string>)['If-None-Match']).toBe('"v1"');
    expect(second).toEqual([{ id: 'a' }]);
    expect(second).toBe(first);
  });

  it('a changed list replaces the remembered body; writes never send a validator', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(new Response('[1]', { status: 200, headers: { ETag: '"v1"' } }))
      .mockResolvedValueOnce(new Response('[2]', { status: 200, headers: { ETag: '"v2"' } }))
      .mockResolvedValueOnce(new Response('{}', { status: 200 }))
      .mockResolvedValueOnce(new Response(null, { status: 304 }));
    vi.stubGlobal('fetch', fetchMock);
    setToken('t');
    await api('GET', '/x');
    expect(await api('GET', '/x')).toEqual([2]);
    await api('PATCH', '/x', {});
    const patch = fetchMock.mock.calls[2] as unknown as [string, RequestInit];
    expect((patch[1].headers as Record<string, string>)['If-None-Match']).toBeUndefined();
    expect(await api('GET', '/x')).toEqual([2]);
    const last = fetchMock.mock.calls[3] as unknown as [string, RequestInit];
    expect((last[1].headers as Record<string, string>)['If-None-Match']).toBe('"v2"');
  });

  it('signing out forgets every remembered answer', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('[]', { status: 200, headers: { ETag: '"v"' } })));
    setToken('t');
    await api('GET', '/a');
    expect(validatorCount()).toBe(1);
    setToken(null);
    expect(validatorCount()).toBe(0);
  });
});
