/** The CLI's pure parts: assignments, output formats, the resource table, config.js and tokens. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { normalizePublicPath, normalizeServer, parseConfigScript } from './api.js';
import { EXIT, assignments, fieldList, parseCommand, parseValue, queryPairs } from './args.js';
import { tokenExpiry } from './config.js';
import { displayWidth, neutralised, render, toCsv } from './format.js';
import { Prompter } from './prompt.js';
import { apiPath, createMethod, deleteMethod, resolveTarget, updateMethod } from './routes.js';

describe('-s key=value', () => {
  it('reads JSON when it parses, else text, and loses no digits', () => {
    expect(parseValue('true')).toBe(true);
    expect(parseValue('null')).toBe(null);
    expect(parseValue('["1","2"]')).toEqual(['1', '2']);
    expect(parseValue('{"a":1}')).toEqual({ a: 1 });
    expect(parseValue('42')).toBe(42);
    expect(parseValue('0012')).toBe('0012');
    expect(parseValue('1.50')).toBe('1.50');
    expect(parseValue('12345678901234567890')).toBe('12345678901234567890');
    expect(parseValue('Jane Doe')).toBe('Jane Doe');
    expect(parseValue('')).toBe('');
    expect(parseValue('a=b')).toBe('a=b');
  });

  it('makes objects of dotted keys, over a file body', () => {
    expect(
      assignments(['code=east', 'operator.username=ops', 'operator.password=x=y', 'roleIds=["1"]'], { name: 'E' }),
    ).toEqual({ name: 'E', code: 'east', operator: { username: 'ops', password: 'x=y' }, roleIds: ['1'] });
    expect(() => assignments(['novalue'])).toThrow(/-s takes key=value/);
    expect(() => assignments(['=x'])).toThrow(/-s takes key=value/);
    expect(queryPairs(['q=张三', 'state=locked'])).toEqual([
      ['q', '张三'],
      ['state', 'locked'],
    ]);
  });

  it('refuses unknown options and bad field lists as usage errors', () => {
    expect(
      parseCommand(['users', '-q', 'a=1', '-q', 'b=2'], { query: { type: 'string', short: 'q', multiple: true } }),
    ).toMatchObject({ positionals: ['users'], values: { query: ['a=1', 'b=2'] } });
    try {
      parseCommand(['--nope'], {});
      expect.unreachable();
    } catch (err) {
      expect((err as { exitCode: number }).exitCode).toBe(EXIT.USAGE);
    }
    expect(fieldList('id, username ,roles.name')).toEqual(['id', 'username', 'roles.name']);
    expect(() => fieldList(',')).toThrow(/--fields/);
  });
});

describe('output', () => {
  const rows = [
    { id: '1', username: 'admin', roles: [{ id: '3', name: '园区运营' }], mobile: null },
    { id: '2', username: 'a,"b"', roles: [], mobile: '13800000001' },
  ];

  it('prints JSON, one object as itself', () => {
    expect(JSON.parse(render(rows, 'json'))).toEqual(rows);
    expect(JSON.parse(render(rows[0], 'json', ['id', 'roles.name']))).toEqual({ id: '1', 'roles.name': ['园区运营'] });
  });

  it('prints CSV with quotes where needed', () => {
    expect(render(rows, 'csv', ['id', 'username', 'roles.name', 'mobile'])).toBe(
      'id,username,roles.name,mobile\n1,admin,"[""园区运营""]",\n2,"a,""b""",[],13800000001\n',
    );
    expect(toCsv([], ['a'])).toBe('a\n');
    expect(toCsv([{ u: ' lead' }, { u: 'a\rb' }, { u: 'a\nb' }])).toBe('u\n" lead"\n"a\rb"\n"a\nb"\n');
  });

  it('keeps a cell a spreadsheet would run as a formula from being one, in the CSV and the table alike', () => {
    expect(toCsv([{ u: '=HYPERLINK("x")' }, { u: '@sum' }, { u: 'plain' }])).toBe(
      'u\n"\'=HYPERLINK(""x"")"\n\'@sum\nplain\n',
    );
    const risky = ['=1+1', '+cmd', '-2+3', '@SUM(A1)', '\tx', '＝1', 'plain', 'a=b'];
    const rows = risky.map((u) => ({ u }));
    const safe = ["'=1+1", "'+cmd", "'-2+3", "'@SUM(A1)", "'\tx", "'＝1", 'plain', 'a=b'];
    expect(risky.map(neutralised)).toEqual(safe);
    // A number is a number: -5 stays -5.
    expect(neutralised(-5)).toBe('-5');
    const table = render(rows, 'table').split('\n').slice(2, -1);
    expect(table).toEqual(safe);
    expect(render([{ n: -5, u: '-x' }], 'table')).toBe("n   u\n--  ---\n-5  '-x\n");
    const csv = toCsv(rows).split('\n').slice(1, -1);
    expect(csv.map((c) => c.replace(/^"(.*)"$/, '$1'))).toEqual(safe);
  });

  it("gives a terminal no control sequence of a cell's text, in the table and the CSV alike", () => {
    // A member's reply may carry them: clear the screen, set the clipboard (OSC 52), reorder text.
    const reply = 'ok\u001b[2J\u001b]52;c;ZWNobyBoaQ==\u0007\u009b31m\u202eevil\u0000';
    const shown = 'ok\ufffd[2J\ufffd]52;c;ZWNobyBoaQ==\ufffd\ufffd31m\ufffdevil\ufffd';
    expect(neutralised(reply)).toBe(shown);
    expect(render([{ r: reply }], 'table')).toBe(`r\n${'-'.repeat(shown.length)}\n${shown}\n`);
    expect(toCsv([{ r: reply }])).toBe(`r\n${shown}\n`);
    // Tabs and line breaks are text: a CSV cell keeps them (quoted), a table makes a line break a space.
    expect(toCsv([{ r: 'a\tb\nc' }])).toBe('r\n"a\tb\nc"\n');
  });

  it('aligns a table, wide characters counted twice', () => {
    expect(displayWidth('园区a')).toBe(5);
    expect(
      render(
        [
          { t: '园区', n: 1 },
          { t: 'ab', n: 22 },
        ],
        'table',
      ),
    ).toBe('t     n\n----  --\n园区  1\nab    22\n');
    expect(render([], 'table')).toBe('');
  });
});

describe('resource paths', () => {
  it('names the method of each command from the route table', () => {
    expect(createMethod(resolveTarget('users'))).toBe('POST');
    expect(createMethod(resolveTarget('users/42/disable'))).toBe('POST');
    expect(createMethod(resolveTarget('menus/import'))).toBe('POST');
    expect(updateMethod(resolveTarget('users/42'))).toBe('PATCH');
    expect(updateMethod(resolveTarget('users/42/roles'))).toBe('PUT');
    expect(updateMethod(resolveTarget('roles/3/permissions'))).toBe('PUT');
    expect(updateMethod(resolveTarget('settings'))).toBe('PUT');
    expect(updateMethod(resolveTarget('agreement'))).toBe('PUT');
    expect(updateMethod(resolveTarget('users/42/password'))).toBe('POST');
    expect(deleteMethod(resolveTarget('menus/7'))).toBe('DELETE');
    expect(resolveTarget('menus/export')).toMatchObject({ kind: 'action', method: 'GET' });
    expect(createMethod(resolveTarget('notices'))).toBe('POST');
    expect(createMethod(resolveTarget('notices/7/withdraw'))).toBe('POST');
    const read = resolveTarget('notices/7/recipients');
    expect(read).toMatchObject({ kind: 'read', shape: 'paged' });
    expect(apiPath(read)).toBe('/api/admin/notices/7/recipients');
    expect(() => createMethod(read)).toThrow(/cannot create notices/);
    expect(updateMethod(resolveTarget('security-policy'))).toBe('PUT');
    expect(apiPath(resolveTarget('security-policy'))).toBe('/api/admin/security-policy');
    const reset = resolveTarget('users/42/factors/reset');
    expect(createMethod(reset)).toBe('POST');
    expect(apiPath(reset)).toBe('/api/admin/users/42/factors/reset');
    expect(() => resolveTarget('users/42/factors')).toThrow(/users has no 'factors'/);
  });

  it('refuses what the API does not have, with usage errors', () => {
    expect(() => resolveTarget('userz')).toThrow(/unknown resource 'userz'/);
    expect(() => resolveTarget('users/1/frobnicate')).toThrow(/users has no 'frobnicate'/);
    expect(() => resolveTarget('toString')).toThrow(/unknown resource/);
    expect(() => createMethod(resolveTarget('users/1/roles'))).toThrow(/use update users\/1\/roles/);
    expect(() => createMethod(resolveTarget('audit'))).toThrow(/cannot create audit/);
    expect(() => updateMethod(resolveTarget('users'))).toThrow(/name one: users\/<id>/);
    expect(() => deleteMethod(resolveTarget('users/1'))).toThrow(/cannot delete/);
  });
});

describe('connection', () => {
  it('reads the server, the public path and config.js', () => {
    expect(normalizeServer('http://localhost:8080/')).toBe('http://localhost:8080');
    expect(normalizeServer('https://portal.example.com/gate/')).toBe('https://portal.example.com/gate');
    expect(() => normalizeServer('localhost:8080')).toThrow(/http\(s\)/);
    expect(normalizePublicPath('center')).toBe('/center/');
    expect(normalizePublicPath('/')).toBe('/');
    expect(parseConfigScript('window.__PORTAL_CONFIG__={"signSecret":"s","x":"\\u003c"};\n')).toEqual({
      signSecret: 's',
      x: '<',
    });
    expect(parseConfigScript('<html>')).toBeNull();
  });

  it("reads a token's expiry", () => {
    const payload = Buffer.from(JSON.stringify({ exp: 1_900_000_000 })).toString('base64url');
    expect(tokenExpiry(`h.${payload}.s`)).toBe(new Date(1_900_000_000_000).toISOString());
    expect(tokenExpiry('opaque')).toBeUndefined();
  });
});

describe('prompts', () => {
  it('reads answers a line each from piped input, and null at its end', async () => {
    const input = new PassThrough();
    let shown = '';
    const prompter = new Prompter(input, { write: (s: string) => (shown += s) });
    input.end('secret\r\n8888\n');
    expect(await prompter.ask('Password: ', { hidden: true })).toBe('secret');
    expect(await prompter.ask('Captcha: ')).toBe('8888');
    expect(await prompter.ask('More: ')).toBeNull();
    prompter.close();
    expect(shown).toBe('Password: \nCaptcha: \nMore: \n');
  });
});
