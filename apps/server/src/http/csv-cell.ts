/** A plain number (as the exports write them): never a formula, so a negative longitude stays a number. */
const PLAIN_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * One CSV cell, quoted where needed and safe to open in a spreadsheet: text starting with = + - @ TAB or CR would be
 * run as a formula (a station named `-1+cmd|' /C calc'!A0`, issue 20), so it gets a leading apostrophe, which
 * spreadsheets show as text. Plain numbers are left as they are.
 */
export function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
