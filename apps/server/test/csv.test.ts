/**
 * The one CSV/TSV writer and reader (packages/contracts/src/csv.ts, `@ipp/contracts/csv`) that the server's exports,
 * the EcoTaxa export and import, the translation upload and the web console's translation table all use.
 */
import { CSV_BOM, CsvParseError, csvCell, csvRecords, csvRow, csvText, parseCsv } from '@ipp/contracts/csv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** Text with what CSV cares about: delimiters, quotes, line breaks, formula starts, spaces and a non-Latin letter. */
const tricky = fc
  .array(fc.constantFrom('a', '1', '.', '-', '+', '=', '@', ',', '\t', '"', '\r', '\n', ' ', '\u3000', 'é', '桡'), {
    maxLength: 12,
  })
  .map((chars) => chars.join(''));
const anyText = fc.oneof(tricky, fc.string(), fc.string({ unit: 'grapheme' }));
const cellValue = fc.oneof(anyText, fc.double(), fc.integer(), fc.constant(null), fc.constant(undefined));
// A table never starts with a byte-order mark in its first cell: the reader skips one there.
const rows = (cell: fc.Arbitrary<string>) =>
  fc
    .array(fc.array(cell, { minLength: 1, maxLength: 5 }), { maxLength: 6 })
    .filter((table) => !table[0]?.[0]?.startsWith(CSV_BOM));

describe('CSV writer', () => {
  it('quotes cells holding the delimiter, a quote or a line break, doubling the quotes', () => {
    expect(['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\rlf', '', null, undefined, 0, 1.5].map(csvCell)).toEqual([
      'plain',
      '"a,b"',
      '"say ""hi"""',
      '"two\nlines"',
      '"cr\rlf"',
      '',
      '',
      '',
      '0',
      '1.5',
    ]);
  });

  it('guards formulas (= + - @ TAB CR at the start), never plain numbers, and only when asked not to skip it', () => {
    expect(['=1+1', '+1+1', '-1+cmd', '@SUM(A1)', '\tx', '\rx', -1.5, '-2', '+3e5', '.5', '-'].map(csvCell)).toEqual([
      "'=1+1",
      "'+1+1",
      "'-1+cmd",
      "'@SUM(A1)",
      "'\tx",
      `"'\rx"`,
      '-1.5',
      '-2',
      '+3e5',
      '.5',
      "'-",
    ]);
    expect(csvRow(['=1+1', '-1+cmd'], { formulaGuard: false })).toBe('=1+1,-1+cmd');
  });

  it('quotes text with spaces at either end where asked', () => {
    expect(csvRow([' a', 'b ', 'c d', '\u3000e'], { quoteEdgeSpace: true })).toBe('" a","b ",c d,"\u3000e"');
    expect(csvRow([' a', 'b '])).toBe(' a,b ');
  });

  it('writes a table with its byte-order mark and line breaks', () => {
    expect(
      csvText(
        [
          ['a', 'b'],
          [1, null],
        ],
        { bom: true },
      ),
    ).toBe(`${CSV_BOM}a,b\r\n1,\r\n`);
    expect(csvText([['a'], ['b']], { eol: '\n' })).toBe('a\nb\n');
    expect(csvText([])).toBe('');
  });

  it('writes a TSV without quotes as EcoTaxa reads it: tabs and line breaks become spaces, quotes stay', () => {
    const tsv = { delimiter: '\t', quotes: false, formulaGuard: false } as const;
    expect(csvRow(['a\tb', 'c\r\nd', 'say "hi"', '=x', null, 2], tsv)).toBe('a b\tc  d\tsay "hi"\t=x\t\t2');
    expect(csvRow(['a\tb', 'c,d'], { delimiter: '\t' })).toBe('"a\tb"\tc,d');
  });

  it('writes what the writers it replaced wrote (the exports, the EcoTaxa TSV, the translation table)', () => {
    const PLAIN_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
    const exportCell = (value: unknown) => {
      const text = value === null || value === undefined ? '' : String(value);
      const safe = /^[=+\-@\t\r]/.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
      return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
    };
    const ecotaxaCell = (v: unknown) => (v === null || v === undefined ? '' : String(v).replace(/[\t\r\n]/g, ' '));
    const translationCell = (value: string) => (/[",\r\n]|^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
    fc.assert(
      fc.property(fc.array(cellValue, { maxLength: 6 }), (values) => {
        expect(csvRow(values)).toBe(values.map(exportCell).join(','));
        expect(csvRow(values, { delimiter: '\t', quotes: false, formulaGuard: false })).toBe(values.map(ecotaxaCell).join('\t'));
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.array(anyText, { maxLength: 6 }), (values) => {
        expect(csvRow(values, { formulaGuard: false, quoteEdgeSpace: true })).toBe(values.map(translationCell).join(','));
      }),
      { numRuns: 500 },
    );
  });
});

describe('CSV reader', () => {
  it('reads quoted fields with delimiters, doubled quotes and line breaks; CRLF, LF and CR end records', () => {
    expect(parseCsv('a,"b,c"\r\n"say ""hi""","two\nlines"\n')).toEqual([
      ['a', 'b,c'],
      ['say "hi"', 'two\nlines'],
    ]);
    expect(parseCsv('a\rb\r\nc\nd')).toEqual([['a'], ['b'], ['c'], ['d']]);
    expect(parseCsv('a,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('skips the byte-order mark, keeps empty lines as one empty cell, and a quote inside a field is text', () => {
    expect(parseCsv(`${CSV_BOM}a\n\nb,\n`)).toEqual([['a'], [''], ['b', '']]);
    expect(parseCsv('a"b,"c"d')).toEqual([['a"b', 'cd']]);
    expect(parseCsv('')).toEqual([]);
  });

  it('refuses a quoted field that is not closed', () => {
    expect(() => parseCsv('a,"open\n')).toThrow(CsvParseError);
    expect(() => parseCsv('a,"open\n')).toThrow(/quoted CSV field is not closed/);
  });

  it('reads a TSV without quotes line by line', () => {
    const tsv = { delimiter: '\t', quotes: false } as const;
    expect(parseCsv('img\tname\n"a.png\tx,y\n\n', tsv)).toEqual([['img', 'name'], ['"a.png', 'x,y'], ['']]);
    const records = csvRecords('h\n1\n2', tsv);
    expect(records.next().value).toEqual(['h']);
    expect([...records]).toEqual([['1'], ['2']]);
  });

  it('reads a TSV without quotes as the EcoTaxa import read it (lines at CRLF or LF, cells at tabs)', () => {
    const before = (text: string) => {
      const lines = text.split(/\r?\n/);
      if (lines.at(-1) === '') lines.pop(); // the line break that ends the last record
      return lines.map((line) => line.split('\t'));
    };
    fc.assert(
      fc.property(
        fc.oneof(
          tricky,
          fc.string(),
          fc.string().map((t) => `a\r${t}\rb\r\n`),
        ),
        (text) => {
          expect(parseCsv(text, { delimiter: '\t', quotes: false })).toEqual(before(text));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('reads back what the writer wrote (round trip), CSV and TSV, with and without the byte-order mark', () => {
    fc.assert(
      fc.property(
        rows(anyText),
        fc.constantFrom(',' as const, '\t' as const),
        fc.boolean(),
        fc.boolean(),
        (table, delimiter, bom, lf) => {
          const text = csvText(table, { delimiter, bom, eol: lf ? '\n' : '\r\n', formulaGuard: false });
          expect(parseCsv(text, { delimiter })).toEqual(table);
        },
      ),
      { numRuns: 500 },
    );
    // Without quotes, cells without tabs or line breaks come back as written.
    const flat = anyText.map((t) => t.replace(/[\t\r\n]/g, ''));
    fc.assert(
      fc.property(rows(flat), (table) => {
        const dialect = { delimiter: '\t', quotes: false } as const;
        expect(parseCsv(csvText(table, { ...dialect, formulaGuard: false, eol: '\n' }), dialect)).toEqual(table);
      }),
      { numRuns: 300 },
    );
  });

  it('reads back the guarded text of a formula, with the apostrophe', () => {
    fc.assert(
      fc.property(rows(anyText), (table) => {
        expect(parseCsv(csvText(table))).toEqual(table.map((row) => row.map((cell) => csvCellText(cell))));
      }),
      { numRuns: 300 },
    );
  });

  it('reads what the reader it replaced read (the translation upload), errors included', () => {
    const before = (text: string): string[][] => {
      const records: string[][] = [];
      let record: string[] = [];
      let field = '';
      let quoted = false;
      for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (quoted) {
          if (c === '"' && text[i + 1] === '"') {
            field += '"';
            i++;
          } else if (c === '"') quoted = false;
          else field += c;
        } else if (c === '"' && field === '') quoted = true;
        else if (c === ',') {
          record.push(field);
          field = '';
        } else if (c === '\n' || c === '\r') {
          if (c === '\r' && text[i + 1] === '\n') i++;
          record.push(field);
          records.push(record);
          record = [];
          field = '';
        } else field += c;
      }
      if (quoted) throw new Error('not closed');
      if (field !== '' || record.length > 0) {
        record.push(field);
        records.push(record);
      }
      return records;
    };
    const attempt = (read: () => string[][]) => {
      try {
        return read();
      } catch {
        return 'error';
      }
    };
    fc.assert(
      fc.property(fc.oneof(tricky, fc.string()), (text) => {
        expect(attempt(() => parseCsv(text))).toEqual(attempt(() => before(text)));
      }),
      { numRuns: 1000 },
    );
  });
});

/** The text a guarded cell holds once read back: the apostrophe in front of a formula, nothing else changed. */
function csvCellText(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) && !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(cell) ? `'${cell}` : cell;
}
