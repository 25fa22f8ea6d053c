import { describe, expect, it } from 'vitest';
import { may, pkceChallenge } from './sso';

describe('sso', () => {
  it('derives the S256 challenge of RFC 7636 appendix B', async () => {
    expect(await pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('reads what a role may do from the allowed list', () => {
    const viewer = { subject: 'vera', via: 'sso', role: 'viewer', allowed: ['GET /admin/v1/groups'] };
    expect(may(viewer, 'GET', '/groups')).toBe(true);
    expect(may(viewer, 'POST', '/groups')).toBe(false);
    expect(may(null, 'GET', '/groups')).toBe(false);
  });
});
