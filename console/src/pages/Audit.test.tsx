import { describe, expect, it } from 'vitest';
import { auditQuery } from './Audit';

describe('auditQuery', () => {
  it('leaves blank filters out and passes the cursor', () => {
    const text = auditQuery({ subject: '  ', resource_type: 'groups', resource_id: ' g1 ' }, '42', 10);
    expect(text).toContain('resource_type=groups');
    expect(text).toContain('resource_id=g1');
    expect(text).toContain('cursor=42');
    expect(text).toContain('limit=10');
    expect(text).not.toContain('subject');
  });
});
