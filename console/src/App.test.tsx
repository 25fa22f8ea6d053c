import { describe, expect, it } from 'vitest';
import { LANDING_PAGE, pageFromHash } from './App';

describe('the console routes', () => {
  it('lands on the overview at / and for an unknown route', () => {
    expect(LANDING_PAGE).toBe('overview');
    expect(pageFromHash('')).toBe('overview');
    expect(pageFromHash('#/')).toBe('overview');
    expect(pageFromHash('#/no-such-page')).toBe('overview');
  });

  it('keeps every other page at its own route', () => {
    for (const page of ['credentials', 'groups', 'teams', 'accessKeys', 'routeCheck', 'requests', 'usage', 'health', 'webhooks', 'settings', 'audit']) {
      expect(pageFromHash(`#/${page}`)).toBe(page);
      expect(pageFromHash(`#${page}`)).toBe(page);
    }
  });
});
