import { describe, expect, it, vi } from 'vitest';
import { nameList, runBatch } from './batch';

describe('batch actions on selected credentials', () => {
  it('pauses each selected credential and reports which succeeded and which failed with the code', async () => {
    const call = vi.fn(async (_method: string, path: string) => {
      if (path.includes('/b/')) throw Object.assign(new Error('gone'), { code: 'not_found' });
      return undefined;
    });
    const outcome = await runBatch('pause', [{ id: 'a', name: 'alpha' }, { id: 'b', name: 'beta' }], call as never);
    expect(call.mock.calls.map((c) => `${c[0]} ${c[1]}`)).toEqual(['POST /credentials/a/pause', 'POST /credentials/b/pause']);
    expect(outcome.done).toEqual(['alpha']);
    expect(outcome.failed).toEqual([{ name: 'beta', reason: 'not_found' }]);
  });

  it('clears only the models 全部解除 would clear (never a paused one)', async () => {
    const call = vi.fn(async (method: string, path: string) => {
      if (method === 'GET')
        return [
          { model_key: 'm1', status: 'cooling', included_in_clear_all: true },
          { model_key: 'm2', status: 'paused', included_in_clear_all: true },
          { model_key: 'x/y', status: 'ok', included_in_clear_all: false },
        ];
      return path;
    });
    const outcome = await runBatch('clear', [{ id: 'a', name: 'alpha' }], call as never);
    expect(call.mock.calls.map((c) => `${c[0]} ${c[1]}`)).toEqual(['GET /credentials/a/models', 'POST /credentials/a/models/m1/clear']);
    expect(outcome.done).toEqual(['alpha']);
  });

  it('a failed test is a failure with its code', async () => {
    const call = vi.fn(async () => ({ success: false, error: { code: 'upstream_status' } }));
    const outcome = await runBatch('test', [{ id: 'a', name: 'alpha' }], call as never);
    expect(outcome.failed).toEqual([{ name: 'alpha', reason: 'upstream_status' }]);
  });

  it('names the first few credentials and counts the rest', () => {
    expect(nameList(['a', 'b'])).toBe('a, b');
    expect(nameList(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toBe('a, b, c, d, e +2');
  });
});
