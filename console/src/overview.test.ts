import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { barHeights, latency, percent, perMinute, usePageVisible } from './overview';

describe('overview numbers', () => {
  it('formats rates, percentages and histogram latencies', () => {
    expect(perMinute(0)).toBe('0');
    expect(perMinute(2.345)).toBe('2.3');
    expect(perMinute(1234.4)).toBe('1,234');
    expect(percent(null)).toBe('—');
    expect(percent(0.9)).toBe('90.0%');
    expect(percent(1)).toBe('100.0%');
    expect(latency(250)).toBe('≤ 250 ms');
    expect(latency(5000)).toBe('≤ 5 s');
    expect(latency(null)).toBe('—');
    expect(latency(120, false)).toBe('120 ms');
  });

  it('scales bars to the busiest minute', () => {
    expect(barHeights([0, 5, 10])).toEqual([0, 0.5, 1]);
    expect(barHeights([0, 0])).toEqual([0, 0]);
  });

  it('knows when the tab is hidden', () => {
    let state = 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
    const { result } = renderHook(() => usePageVisible());
    expect(result.current).toBe(true);
    act(() => {
      state = 'hidden';
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(result.current).toBe(false);
    act(() => {
      state = 'visible';
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(result.current).toBe(true);
  });
});
