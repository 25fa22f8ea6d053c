import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { usePolling } from './hooks';

function Poller({ load }: { load: () => Promise<number> }) {
  usePolling(load, 1000);
  return null;
}

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

afterEach(() => {
  vi.useRealTimers();
  setVisibility('visible');
});

describe('polling', () => {
  it('stops while the tab is hidden and fetches at once when it is shown again', async () => {
    vi.useFakeTimers();
    const load = vi.fn(async () => 1);
    render(<Poller load={load} />);
    expect(load).toHaveBeenCalledTimes(1);
    await act(async () => {
      vi.advanceTimersByTime(3000);
    });
    expect(load).toHaveBeenCalledTimes(4);
    setVisibility('hidden');
    await act(async () => {
      vi.advanceTimersByTime(10_000);
    });
    expect(load).toHaveBeenCalledTimes(4);
    await act(async () => {
      setVisibility('visible');
    });
    expect(load).toHaveBeenCalledTimes(5);
  });
});
