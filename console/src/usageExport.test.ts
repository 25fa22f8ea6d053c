import { describe, expect, it } from 'vitest';
import { exportQuery } from './usageExport';

describe('usage export', () => {
  const now = Date.parse('2026-07-31T00:00:00Z');

  it('bounds an open range to the last 31 days', () => {
    const q = exportQuery({ model: 'm' }, now);
    expect(q).toContain('/usage/export?');
    expect(q).toContain('from=2026-06-30T00%3A00%3A00.000Z');
    expect(q).toContain('to=2026-07-31T00%3A00%3A00.000Z');
    expect(q).toContain('model=m');
    expect(q).toContain('format=csv');
  });

  it('cuts a start earlier than the bound', () => {
    const q = exportQuery({ from: '2026-01-01T00:00:00Z', to: '2026-07-31T00:00:00Z' }, now);
    expect(q).toContain('from=2026-06-30T00%3A00%3A00.000Z');
  });
});
