/**
 * The industry file of the import command, without a database: CSV (quotes, BOM, derived parents),
 * JSON (flat, nested, an indTree answer), and every problem reported with its line. Also the seed.
 */
import { describe, expect, it } from 'vitest';
import {
  countByLevel,
  derivedParent,
  describeProblem,
  formatOf,
  parseCsv,
  parseIndustriesCsv,
  parseIndustriesFile,
  parseIndustriesJson,
  parseJsonWithLines,
  sectionOfDivision,
  validateIndustries,
} from './industries-file.js';
import { industrySeed } from './industries-seed.js';

const lines = (problems: { line: number | null; message: string }[]) => problems.map(describeProblem);

describe('codes', () => {
  it('finds a division’s section from the GB/T 4754-2017 ranges', () => {
    expect(
      ['01', '05', '06', '12', '13', '43', '44', '50', '52', '60', '62', '65', '69', '70', '72', '75', '79'].map(
        sectionOfDivision,
      ),
    ).toEqual(['A', 'A', 'B', 'B', 'C', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N']);
    expect(['82', '83', '85', '90', '96', '97'].map(sectionOfDivision)).toEqual(['O', 'P', 'Q', 'R', 'S', 'T']);
    expect(['00', '98', '6', 'AB'].map(sectionOfDivision)).toEqual([null, null, null, null]);
    expect(['C', '39', '397', '3973', '39731'].map(derivedParent)).toEqual([null, 'C', '39', '397', null]);
  });
});

describe('CSV', () => {
  it('reads quoted fields with commas, quotes and line breaks, CRLF and a byte order mark', () => {
    const { records, problems } = parseCsv('\uFEFFa,b\r\n"x, y","say ""hi"""\r\n\r\n"two\nlines",z\nlast,""');
    expect(problems).toEqual([]);
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x, y', 'say "hi"'] },
      { line: 4, fields: ['two\nlines', 'z'] },
      { line: 6, fields: ['last', ''] },
    ]);
  });

  it('derives parents and levels from the codes, keeps the file order and quoted names', () => {
    const csv = [
      '\uFEFFcode,name',
      'C,制造业',
      '39,"计算机、通信和其他电子设备制造业"',
      '397,电子器件制造',
      '3973,集成电路制造',
      '3971,电子真空器件制造',
      'L,租赁和商务服务业',
      '72,商务服务业',
      '729,其他商务服务业',
      '7291,"旅行社及相关服务, 含""导游"""',
      '',
    ].join('\r\n');
    const { rows, problems } = parseIndustriesCsv(csv);
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      { code: 'C', parentCode: null, name: '制造业', level: 1, sort: 0 },
      { code: '39', parentCode: 'C', name: '计算机、通信和其他电子设备制造业', level: 2, sort: 0 },
      { code: '397', parentCode: '39', name: '电子器件制造', level: 3, sort: 0 },
      { code: '3973', parentCode: '397', name: '集成电路制造', level: 4, sort: 0 },
      { code: '3971', parentCode: '397', name: '电子真空器件制造', level: 4, sort: 1 },
      { code: 'L', parentCode: null, name: '租赁和商务服务业', level: 1, sort: 1 },
      { code: '72', parentCode: 'L', name: '商务服务业', level: 2, sort: 0 },
      { code: '729', parentCode: '72', name: '其他商务服务业', level: 3, sort: 0 },
      { code: '7291', parentCode: '729', name: '旅行社及相关服务, 含"导游"', level: 4, sort: 0 },
    ]);
    expect(countByLevel(rows)).toEqual([2, 2, 2, 3]);
  });

  it('takes parent_code and level columns in any order, blank ones derived', () => {
    const { rows, problems } = parseIndustriesCsv(
      'level,parent_code,name,code\n1,,信息传输、软件和信息技术服务业,I\n2,I,软件和信息技术服务业,65\n,,软件开发,651\n4,651,应用软件开发,6513\n',
    );
    expect(problems).toEqual([]);
    expect(rows.map((r) => [r.code, r.parentCode, r.level])).toEqual([
      ['I', null, 1],
      ['65', 'I', 2],
      ['651', '65', 3],
      ['6513', '651', 4],
    ]);
  });

  it('reports every problem with its line and keeps no rows', () => {
    const csv = [
      'code,name,parent_code,level', // 1
      'C,制造业,,', // 2
      '39,计算机制造业,,', // 3
      '39,重复,,', // 4: duplicate
      '398,,,', // 5: no name
      '3981,电阻,,3', // 6: level does not match
      '3982,电路,396,', // 7: parent is not the prefix
      '4100,其他,,', // 8: parent 410 missing
      '98,未知大类,,', // 9: in no section
      'c,小写,,', // 10: not a code
      '12345,太长,,', // 11: not a code
      `3983,${'长'.repeat(101)},,`, // 12: name too long
      '3984,电声,,5', // 13: level out of range
      '3985,"材料""x,,', // 14: quote never closed
    ].join('\n');
    const { rows, problems } = parseIndustriesCsv(csv);
    expect(rows.length).toBeGreaterThan(0); // what is valid is parsed, but problems forbid the import
    expect(lines(problems)).toEqual([
      'line 4: code "39" appears more than once (first on line 3)',
      'line 5: name of "398" is missing',
      'line 6: level 3 does not match code "3981", which is a level 4 code',
      'line 7: parent code "396" of "3982" should be "398" (the code without its last digit)',
      'line 8: parent "410" of "4100" is not in the file',
      'line 9: division "98" is in no section\'s range of GB/T 4754-2017: give its parent_code',
      'line 10: code "c" is neither a section letter (A–Z) nor a 2-, 3- or 4-digit code',
      'line 11: code "12345" is neither a section letter (A–Z) nor a 2-, 3- or 4-digit code',
      'line 12: name of "3983" has 101 characters; at most 100',
      'line 13: level of "3984" must be 1, 2, 3 or 4 (got "5")',
      'line 14: a quoted field is never closed',
    ]);
  });

  it('reports header problems, wrong field counts and a section with a parent', () => {
    expect(lines(parseIndustriesCsv('code,title,parent\nC,制造业,\n').problems)).toEqual([
      'line 1: unknown column "title" in the header (columns: code, name, parent_code, level)',
      'line 1: unknown column "parent" in the header (columns: code, name, parent_code, level)',
      'line 1: the header has no "name" column',
    ]);
    expect(lines(parseIndustriesCsv('code,name,code\n').problems)).toEqual([
      'line 1: column "code" appears twice in the header',
    ]);
    expect(lines(parseIndustriesCsv('').problems)).toEqual(['the file is empty']);
    expect(lines(parseIndustriesCsv('code,name\n').problems)).toEqual(['the file has no rows']);
    expect(lines(parseIndustriesCsv('code,name,parent_code\nA,农业\nB,采矿业,A\n"C"x,制造业,\n').problems)).toEqual([
      'line 2: 2 fields, but the header has 3',
      'line 3: "B" is a section (门类) and has no parent, but "A" is given',
      'line 4: unexpected text after a closing quote (write a quote inside as "")',
    ]);
  });

  it('goes on after text behind a closing quote, and names the line a quote never closed starts on', () => {
    const after = parseCsv('code,name\n"C"x,制造业\nD,x\n"F"z,w\nG,h\n');
    expect(after.records.map((r) => r.line)).toEqual([1, 3, 5]);
    expect(lines(after.problems)).toEqual([
      'line 2: unexpected text after a closing quote (write a quote inside as "")',
      'line 4: unexpected text after a closing quote (write a quote inside as "")',
    ]);
    const open = parseCsv('code,name\r\nA,x\rB,"y\n\nC,z\n');
    expect(open.records).toEqual([
      { line: 1, fields: ['code', 'name'] },
      { line: 2, fields: ['A', 'x'] },
    ]);
    expect(lines(open.problems)).toEqual(['line 3: a quoted field is never closed']);
  });

  it('refuses more than 10,000 rows and a parent of the wrong level', () => {
    const many = ['code,name', 'C,制造业', '13,农副食品加工业', '131,谷物磨制'];
    for (let i = 0; i < 10_000; i++) many.push(`1311,稻谷加工${i}`);
    const { problems } = parseIndustriesCsv(many.join('\n'));
    expect(describeProblem(problems[0]!)).toBe('the file has 10003 rows; at most 10000 are accepted');
    expect(
      lines(parseIndustriesCsv('code,name,parent_code\nC,制造业,\nI,信息,\n13,农副,65\n65,软件,I\n').problems),
    ).toEqual(['line 4: parent "65" of "13" is level 2, not level 1']);
  });
});

describe('JSON', () => {
  it('remembers the line each object starts on and reports syntax errors by line', () => {
    const { value, lineOf, elementLines } = parseJsonWithLines(
      '[\n  {"a": 1},\n\n  {"b": "x\\"y", "__proto__": 2},\n  "z"\n]',
    );
    const list = value as object[];
    expect(list.slice(0, 2).map((o) => lineOf.get(o))).toEqual([2, 4]);
    expect(elementLines.get(list)).toEqual([2, 4, 5]);
    expect(Object.getPrototypeOf(list[1])).toBe(Object.prototype);
    expect(Object.entries(list[1]!)).toEqual([
      ['b', 'x"y'],
      ['__proto__', 2],
    ]);
    expect(
      parseIndustriesJson('[\n {"code": "C", "name": "制造业"},\n {"code": "13" "name": "x"}\n]').problems,
    ).toEqual([{ line: 3, message: 'expected "," or "}"' }]);
    expect(parseIndustriesJson('{"code": "C"}').problems).toEqual([
      { line: 1, message: 'expected an array of industries (or an object with a "data" array)' },
    ]);
  });

  it('reads strict JSON only, at most 64 levels deep', () => {
    const problem = (text: string) => lines(parseIndustriesJson(text).problems);
    expect(problem('[\n  {"code": "C", "name": "制造业"},\n]')).toEqual(['line 3: unexpected "]"']);
    expect(problem('// industries\n[]')).toEqual(['line 1: unexpected "/"']);
    expect(problem('[{code: "C"}]')).toEqual(['line 1: expected a property name in double quotes']);
    expect(problem('[{"code": "C", "name": "制\n造业"}]')).toEqual([
      'line 1: a line break or control character inside a string',
    ]);
    expect(problem('[{"code": "C"}] []')).toEqual(['line 1: unexpected text after the end']);
    expect(problem('[\n{"code": "C", "name": "制造业"')).toEqual(['line 2: expected "," or "}"']);
    expect(problem('\n'.repeat(2) + '['.repeat(100_000))).toEqual(['line 3: nested more than 64 levels deep']);
  });

  it('reads a flat list with optional parentCode and level', () => {
    const { rows, problems } = parseIndustriesJson(
      JSON.stringify(
        [
          { code: 'I', name: '信息传输、软件和信息技术服务业', level: 1 },
          { code: '65', name: '软件和信息技术服务业', parentCode: 'I' },
          { code: '651', name: '软件开发', parent_code: '65', level: '3' },
          { code: '6513', name: '应用软件开发' },
        ],
        null,
        2,
      ),
    );
    expect(problems).toEqual([]);
    expect(rows.map((r) => [r.code, r.parentCode, r.level])).toEqual([
      ['I', null, 1],
      ['65', 'I', 2],
      ['651', '65', 3],
      ['6513', '651', 4],
    ]);
  });

  it('reads a nested tree, also as indTree answers it (envelope, isLeaf)', () => {
    const tree = [
      {
        code: 'L',
        name: '租赁和商务服务业',
        level: 1,
        isLeaf: false,
        children: [
          {
            code: '72',
            name: '商务服务业',
            children: [{ code: '723', name: '法律服务', children: [{ code: '7232', name: '公证服务', isLeaf: true }] }],
          },
        ],
      },
    ];
    for (const text of [JSON.stringify(tree), JSON.stringify({ status: 200, message: '成功', data: tree })]) {
      const { rows, problems } = parseIndustriesFile(text, formatOf('tree.txt', text));
      expect(problems).toEqual([]);
      expect(rows.map((r) => `${r.parentCode}>${r.code}`)).toEqual(['null>L', 'L>72', '72>723', '723>7232']);
    }
  });

  it('reports every problem with the line of its object', () => {
    const text = `[
  {"code": "C", "name": "制造业", "children": [
    {"code": "39", "name": "计算机制造业", "parentCode": "B"},
    {"code": "13", "name": "  "},
    {"code": 14, "name": "食品制造业"},
    "15",
    {"code": "16", "name": "烟草", "children": {"code": "161"}}
  ]},
  {"code": "C", "name": "又一个"},
  {"code": "6513", "name": "应用软件开发", "level": 3}
]`;
    expect(lines(parseIndustriesJson(text).problems)).toEqual([
      'line 3: parent code "B" of "39" is not the node it is nested in ("C")',
      'line 3: parent "B" of "39" is not in the file',
      'line 4: name of "13" is missing',
      'line 5: code 14 must be text (in quotes)',
      'line 6: expected an object {code, name}',
      'line 7: "children" must be an array',
      'line 9: code "C" appears more than once (first on line 2)',
      'line 10: level 3 does not match code "6513", which is a level 4 code',
      'line 10: parent "651" of "6513" is not in the file',
    ]);
  });

  it('tells the format by extension, else by the first character', () => {
    expect(formatOf('a.JSON', 'code,name')).toBe('json');
    expect(formatOf('a.csv', '[')).toBe('csv');
    expect(formatOf('a', '\uFEFF  [{}]')).toBe('json');
    expect(formatOf('a.txt', 'code,name')).toBe('csv');
  });
});

describe('the built-in seed', () => {
  it('has the 20 sections and 97 divisions of GB/T 4754-2017 and five divisions down to classes', () => {
    const rows = industrySeed();
    const [sections, divisions, groups, classes] = countByLevel(rows);
    expect([sections, divisions]).toEqual([20, 97]);
    expect(rows.filter((r) => r.level === 1).map((r) => r.code)).toEqual([...'ABCDEFGHIJKLMNOPQRST']);
    expect(rows.filter((r) => r.level === 2).map((r) => Number(r.code))).toEqual(
      Array.from({ length: 97 }, (_, i) => i + 1),
    );
    expect(new Set(rows.filter((r) => r.level === 3).map((r) => r.code.slice(0, 2)))).toEqual(
      new Set(['13', '39', '64', '65', '72']),
    );
    expect(groups).toBeGreaterThanOrEqual(30);
    expect(classes).toBeGreaterThanOrEqual(100);
    // Round trip through the file format: the seed as CSV validates to the same rows.
    const csv = ['code,name', ...rows.map((r) => `${r.code},"${r.name}"`)].join('\n');
    expect(parseIndustriesCsv(csv)).toEqual({ rows, problems: [] });
    expect(validateIndustries(rows.map((r) => ({ line: null, ...r }))).problems).toEqual([]);
  });
});
