/**
 * CSV and TSV, written and read one way by the server and the web console (`@ipp/contracts/csv`, without zod).
 *
 * Writing: a cell is null/undefined → '', anything else its String(); by default a cell a spreadsheet would run as a
 * formula gets a leading apostrophe (issue 20), and a cell holding the delimiter, a quote or a line break is quoted
 * (RFC 4180). Reading: RFC 4180 by default; a leading byte-order mark is skipped. A table without quotes (EcoTaxa's
 * TSV) is the dialect `{ delimiter: '\t', quotes: false }`: its cells' tabs and line breaks are written as spaces, and
 * every line is read as one record.
 */

/** The byte-order mark spreadsheet programs (and EcoTaxa) need to read UTF-8 as UTF-8. */
export const CSV_BOM = '\uFEFF';

export interface CsvDialect {
  /** Between cells: ',' (default) or a tab. */
  delimiter?: ',' | '\t';
  /**
   * RFC 4180 quoting (default true). false: a table without quotes, where the delimiter and line breaks inside a cell
   * are written as spaces and a quote is an ordinary character.
   */
  quotes?: boolean;
}

export interface CsvWriteOptions extends CsvDialect {
  /**
   * Text starting with = + - @ TAB or CR gets a leading apostrophe, which spreadsheets show as text (default true).
   * Off only for tables that are read back by a program (the translation table, EcoTaxa's TSV), where the apostrophe
   * would become part of the text.
   */
  formulaGuard?: boolean;
  /** Also quote a cell with whitespace at either end, which some readers trim (default false). */
  quoteEdgeSpace?: boolean;
}

export interface CsvTextOptions extends CsvWriteOptions {
  /** Start with the byte-order mark (default false). */
  bom?: boolean;
  /** What ends each record, the last one too: '\r\n' (default, RFC 4180) or '\n'. */
  eol?: '\r\n' | '\n';
}

/** A plain number (as the exports write them): never a formula, so a negative longitude stays a number. */
const PLAIN_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = { ',': /[",\r\n]/, '\t': /["\t\r\n]/ } as const;
const NEEDS_QUOTES_OR_EDGE_SPACE = { ',': /[",\r\n]|^\s|\s$/, '\t': /["\t\r\n]|^\s|\s$/ } as const;
const UNQUOTABLE = { ',': /[,\r\n]/g, '\t': /[\t\r\n]/g } as const;

function cellOf(value: unknown, options: CsvWriteOptions): string {
  const { delimiter = ',', quotes = true, formulaGuard = true, quoteEdgeSpace = false } = options;
  const text = value === null || value === undefined ? '' : String(value);
  const safe = formulaGuard && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
  if (!quotes) return safe.replace(UNQUOTABLE[delimiter], ' ');
  return (quoteEdgeSpace ? NEEDS_QUOTES_OR_EDGE_SPACE : NEEDS_QUOTES)[delimiter].test(safe)
    ? `"${safe.replace(/"/g, '""')}"`
    : safe;
}

/** One CSV cell with the defaults (formula guard, RFC 4180 quotes); one argument, so `.map(csvCell)` reads right. */
export function csvCell(value: unknown): string {
  return cellOf(value, {});
}

/** One record: its cells joined by the delimiter, without the line break. */
export function csvRow(values: readonly unknown[], options: CsvWriteOptions = {}): string {
  const delimiter = options.delimiter ?? ',';
  return values.map((value) => cellOf(value, options)).join(delimiter);
}

/** A whole table: the byte-order mark where asked, then every record followed by the line break. */
export function csvText(rows: readonly (readonly unknown[])[], options: CsvTextOptions = {}): string {
  const eol = options.eol ?? '\r\n';
  return (options.bom ? CSV_BOM : '') + rows.map((row) => csvRow(row, options) + eol).join('');
}

/** A table that cannot be read: a quoted field runs to the end of the text. */
export class CsvParseError extends Error {}

/**
 * The records of a table, one at a time (a large table is never held twice). A line break is CRLF, LF or, with
 * quotes (RFC 4180 tables), a lone CR; without quotes (EcoTaxa's TSV) a lone CR is part of the cell, as the import
 * always read it. One at the end of the text ends the last record; an empty line is a record of one empty cell (callers skip those). With
 * quotes, a field that starts with `"` runs to the next lone `"` and may hold the delimiter, line breaks and `""`
 * (a quote).
 */
export function* csvRecords(text: string, dialect: CsvDialect = {}): Generator<string[]> {
  const delimiter = dialect.delimiter ?? ',';
  const quotes = dialect.quotes ?? true;
  const plain = delimiter === ',' ? /[^,\r\n]+/y : /[^\t\r\n]+/y;
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.startsWith(CSV_BOM) ? 1 : 0;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      const close = text.indexOf('"', i);
      if (close < 0) break;
      field += text.slice(i, close);
      if (text[close + 1] === '"') {
        field += '"';
        i = close + 2;
      } else {
        quoted = false;
        i = close + 1;
      }
    } else if (quotes && c === '"' && field === '') {
      quoted = true;
      i++;
    } else if (c === delimiter) {
      record.push(field);
      field = '';
      i++;
    } else if (c === '\r' && !quotes && text[i + 1] !== '\n') {
      field += c;
      i++;
    } else if (c === '\n' || c === '\r') {
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      record.push(field);
      yield record;
      record = [];
      field = '';
    } else {
      plain.lastIndex = i;
      plain.test(text);
      field += text.slice(i, plain.lastIndex);
      i = plain.lastIndex;
    }
  }
  if (quoted) throw new CsvParseError('a quoted CSV field is not closed');
  if (field !== '' || record.length > 0) {
    record.push(field);
    yield record;
  }
}

/** Every record of a table (see csvRecords). */
export function parseCsv(text: string, dialect: CsvDialect = {}): string[][] {
  return [...csvRecords(text, dialect)];
}
