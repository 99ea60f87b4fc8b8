import { ATTACHMENT_EXTENSIONS } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { attachmentProblem, attachmentRules, megabytes } from './attachments';

describe('reply attachments: the rules the server enforces, said and filtered', () => {
  it('takes the size from the server configuration (config.js)', () => {
    window.__PORTAL_CONFIG__ = { ...window.__PORTAL_CONFIG__!, uploadMaxBytes: 5 * 2 ** 20 };
    expect(attachmentRules()).toMatchObject({ maxBytes: 5 * 2 ** 20, size: '5 MB' });
  });

  it('gives the picker and the hint every allowed extension, and nothing else', () => {
    const rules = attachmentRules(20 * 2 ** 20);
    expect(rules.accept.split(',')).toEqual(ATTACHMENT_EXTENSIONS.map((e) => `.${e}`));
    expect(rules.types.split(', ')).toEqual([...ATTACHMENT_EXTENSIONS]);
    expect(rules.size).toBe('20 MB');
  });

  it('says sizes in megabytes, to a tenth', () => {
    expect(megabytes(2 ** 20 / 2)).toBe('0.5 MB');
    expect(megabytes(1536 * 1024)).toBe('1.5 MB');
    expect(megabytes(1024 * 2 ** 20)).toBe('1024 MB');
  });

  it('refuses a type the server refuses, and a file larger than it takes', () => {
    const rules = attachmentRules(2 ** 20);
    expect(attachmentProblem({ name: 'setup.exe', size: 10 }, rules)).toBe('type');
    expect(attachmentProblem({ name: 'report.pdf', size: 2 ** 20 + 1 }, rules)).toBe('size');
    expect(attachmentProblem({ name: 'report.PDF', size: 2 ** 20 }, rules)).toBeNull();
  });
});
