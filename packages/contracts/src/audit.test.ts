import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, AUDIT_ACTION_CODES, auditLabel, isAuditAction } from './audit.js';

describe('the audit catalogue', () => {
  it('gives every code the grammar codes keep and a label in both languages', () => {
    for (const code of AUDIT_ACTION_CODES) {
      expect(code).toMatch(/^[a-z_]+(\.[a-z_]+)*$/);
      expect(AUDIT_ACTIONS[code].zh.trim(), code).not.toBe('');
      expect(AUDIT_ACTIONS[code].en.trim(), code).not.toBe('');
    }
    const zh = AUDIT_ACTION_CODES.map((c) => AUDIT_ACTIONS[c].zh);
    const en = AUDIT_ACTION_CODES.map((c) => AUDIT_ACTIONS[c].en);
    // A label names one action: the console's filter offers them by label.
    expect(new Set(zh).size).toBe(zh.length);
    expect(new Set(en).size).toBe(en.length);
  });

  it('labels a code in the language asked for, and shows a text it has no code for as it is', () => {
    expect(auditLabel('user.password.set', 'zh')).toBe('设置用户密码');
    expect(auditLabel('user.password.set', 'en')).toBe('Set a user’s password');
    expect(auditLabel('admin:POST /api/admin/gone', 'en')).toBe('admin:POST /api/admin/gone');
    expect(isAuditAction('toString')).toBe(false);
  });
});
