import { describe, expect, it } from 'vitest';
import { reloadForNewBundle, type ReloadEnvironment } from './lazyPage';

function environment(start: number) {
  let stored: string | null = null;
  const state = { now: start, reloads: 0 };
  const env: ReloadEnvironment = {
    now: () => state.now,
    read: () => stored,
    write: (value) => {
      stored = value;
    },
    reload: () => {
      state.reloads++;
    },
  };
  return { env, state };
}

describe('a chunk that fails to load after an upgrade', () => {
  it('reloads the page once to fetch the new bundle', () => {
    const { env, state } = environment(1_000_000);
    expect(reloadForNewBundle(env)).toBe(true);
    expect(state.reloads).toBe(1);
  });

  it('does not reload again within a minute (no reload loop), but does after', () => {
    const { env, state } = environment(1_000_000);
    reloadForNewBundle(env);
    state.now += 30_000;
    expect(reloadForNewBundle(env)).toBe(false);
    expect(state.reloads).toBe(1);
    state.now += 31_000;
    expect(reloadForNewBundle(env)).toBe(true);
    expect(state.reloads).toBe(2);
  });

  it('never reloads when the mark cannot be stored (a loop could not be stopped)', () => {
    const env: ReloadEnvironment = { now: () => 5_000_000, read: () => null, write: () => {}, reload: () => { throw new Error('reloaded'); } };
    expect(reloadForNewBundle(env)).toBe(false);
  });
});
