import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_CODES } from './audit.js';
import {
  AUDIT_SENTENCES,
  AUDIT_SUBJECT_TYPE_CODES,
  auditChangeText,
  auditSentence,
  auditValueText,
  genericAuditSentence,
  type AuditSubject,
} from './audit-sentences.js';

const zhang = { name: '张三', username: 'zhangsan' };
const blueSea: AuditSubject = {
  type: 'enterprise',
  id: '2',
  name: '蓝海智能制造有限公司',
  en: 'Blue Sea Smart Manufacturing Co., Ltd.',
};
const liSi: AuditSubject = { type: 'user', id: '7', name: '李四', en: 'Li Si', username: 'lisi' };

describe('audit sentences', () => {
  it('has a sentence for every code of the catalogue, in both languages, naming who acted', () => {
    const missing = AUDIT_ACTION_CODES.filter((c) => !AUDIT_SENTENCES[c]);
    // A code added to the catalogue needs its sentence here (until then its rows read generically).
    expect(missing, 'codes without a sentence in AUDIT_SENTENCES').toEqual([]);
    for (const code of AUDIT_ACTION_CODES) {
      const sentence = AUDIT_SENTENCES[code]!;
      for (const lang of ['zh', 'en'] as const) {
        expect(sentence[lang], `${code} ${lang}`).toContain('{actor}');
        const made = auditSentence({ action: code, actor: zhang, subject: liSi, changes: [] }, lang);
        expect(made, `${code} ${lang}`).not.toMatch(/[{}]/);
        expect(made, `${code} ${lang}`).toContain('张三');
      }
      // English sentences have no Chinese once the names are English, and the Chinese ones have Chinese.
      const en = auditSentence({ action: code, actor: { name: 'Zhang San', username: 'z' }, subject: liSi }, 'en');
      expect(en, code).not.toMatch(/[\u4e00-\u9fff]/);
      expect(auditSentence({ action: code, actor: zhang, subject: liSi }, 'zh'), code).toMatch(/[\u4e00-\u9fff]{2}/);
    }
  });

  it('says what a review decided, naming the enterprise in the reader’s language', () => {
    const approved = {
      action: 'enterprise.review',
      actor: zhang,
      subject: blueSea,
      changes: [{ field: 'estatus', from: 0, to: 1 }],
    };
    expect(auditSentence(approved, 'zh')).toBe('张三 通过了 蓝海智能制造有限公司 的入驻审核');
    expect(auditSentence({ ...approved, actor: { name: 'Zhang San', username: 'zhangsan' } }, 'en')).toBe(
      'Zhang San approved Blue Sea Smart Manufacturing Co., Ltd.’s registration',
    );
    const rejected = { ...approved, changes: [{ field: 'estatus', from: 0, to: 2 }] };
    expect(auditSentence(rejected, 'zh')).toBe('张三 驳回了 蓝海智能制造有限公司 的入驻审核');
    // Without an English name, English names it as it is.
    expect(auditSentence({ ...approved, subject: { ...blueSea, en: undefined } as AuditSubject }, 'en')).toBe(
      '张三 approved 蓝海智能制造有限公司’s registration',
    );
    // A decision the row does not tell (the same state again) still names the enterprise.
    expect(auditSentence({ ...approved, changes: [] }, 'zh')).toBe('张三 审核了 蓝海智能制造有限公司');
  });

  it('names a replaced sub-application by the code its row keeps', () => {
    const replaced = { action: 'microapp.replaced', actor: zhang, detail: { code: 'park-services' } };
    expect(auditSentence(replaced, 'zh')).toBe('张三 替换了子应用 park-services 的入口');
    expect(auditSentence({ ...replaced, detail: {} }, 'zh')).toBe('张三：替换子应用入口');
  });

  it('names a user with the username', () => {
    expect(auditSentence({ action: 'user.disable', actor: zhang, subject: liSi }, 'zh')).toBe(
      '张三 停用了用户 李四（lisi）',
    );
    expect(auditSentence({ action: 'user.disable', actor: zhang, subject: liSi }, 'en')).toBe(
      '张三 disabled the user Li Si (lisi)',
    );
  });

  it('reads the sign-ins: who, or the username typed when no account matched', () => {
    expect(auditSentence({ action: 'login.succeeded', actor: zhang }, 'zh')).toBe('张三 登录成功');
    expect(auditSentence({ action: 'login.succeeded', actor: zhang }, 'en')).toBe('张三 signed in');
    expect(auditSentence({ action: 'login.failed', actor: null, detail: { username: 'xyz' } }, 'zh')).toBe(
      '登录失败：用户名 xyz（无此用户）',
    );
    expect(auditSentence({ action: 'login.failed', actor: null, detail: { username: 'xyz' } }, 'en')).toBe(
      'Sign-in failed: username xyz (no such user)',
    );
    expect(auditSentence({ action: 'login.failed', actor: zhang, detail: { username: 'zhangsan' } }, 'zh')).toBe(
      '张三 登录失败：密码错误',
    );
    expect(auditSentence({ action: 'login.captcha_failed', actor: null }, 'zh')).toBe('登录失败：验证码错误');
  });

  it('falls back to who and the label for rows without what a sentence needs', () => {
    // Written before rows named their objects: the old detail shape.
    const old = { action: 'enterprise.review', actor: zhang, detail: { body: { estatus: 1 }, params: { id: '2' } } };
    expect(auditSentence(old, 'zh')).toBe('张三：审核企业');
    expect(auditSentence(old, 'en')).toBe('张三: reviewed an enterprise');
    // A text the catalogue has no code for is shown as it is.
    expect(auditSentence({ action: 'admin:POST /api/admin/gone', actor: zhang }, 'en')).toBe(
      '张三: admin:POST /api/admin/gone',
    );
    expect(auditSentence({ action: 'admin:POST /api/admin/gone', actor: null }, 'zh')).toBe(
      'admin:POST /api/admin/gone',
    );
    // No one known, and no sentence without one: the label.
    expect(auditSentence({ action: 'user.disable', actor: null, subject: liSi }, 'zh')).toBe('停用用户');
    expect(genericAuditSentence({ action: 'user.disable', actor: zhang }, 'zh')).toBe('张三：停用用户');
  });

  it('puts changes in words: field labels, coded values, names and lists in the reader’s language', () => {
    expect(auditChangeText({ field: 'estatus', from: 0, to: 1 }, 'zh')).toBe('审核状态：待审核 → 已通过');
    expect(auditChangeText({ field: 'estatus', from: 0, to: 1 }, 'en')).toBe(
      'Review status: Awaiting review → Approved',
    );
    expect(auditChangeText({ field: 'disabled', from: false, to: true }, 'zh')).toBe('已停用：否 → 是');
    const roles = {
      field: 'roles',
      from: [{ name: '访客', en: 'Guest' }],
      to: [
        { name: '访客', en: 'Guest' },
        { name: '园区运营', en: 'Park operator' },
      ],
    };
    expect(auditChangeText(roles, 'zh')).toBe('角色：访客 → 访客、园区运营');
    expect(auditChangeText(roles, 'en')).toBe('Roles: Guest → Guest, Park operator');
    expect(auditChangeText({ field: 'name', to: '王五' }, 'zh')).toBe('名称：王五');
    expect(auditChangeText({ field: 'roles', from: [], to: null }, 'en')).toBe('Roles: (none) → (empty)');
    expect(auditChangeText({ field: 'somethingNew', from: 'a', to: 'b' }, 'en')).toBe('somethingNew: a → b');
    expect(auditValueText('mobile', '', 'zh')).toBe('（空）');
  });

  it('knows a word for every kind of object', () => {
    expect(AUDIT_SUBJECT_TYPE_CODES).toContain('enterprise');
  });
});
