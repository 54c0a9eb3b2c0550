// The formula-injection rule (OWASP; ARCHITECTURE §4) and the RFC 4180 cell it is written into, on text.
// The engine's writer applies the same rule to UTF-8 bytes (libs/csv-engine/src/writer.ts needsFormulaGuard,
// writeCell); engine-conformance.spec.ts holds the two equal.

/** Is `v` a plain number or a phone number, so a leading + or - is harmless? (Its first character is not read.) */
export function isNumberOrPhoneText(v: string): boolean {
  let digits = 0;
  for (let i = 1; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) digits++;
    // Only characters that cannot form a function call: digits and number/phone punctuation.
    else if (c !== 0x2e && c !== 0x2c && c !== 0x20 && c !== 0x28 && c !== 0x29 && c !== 0x2d && c !== 0x2f)
      return false;
  }
  return digits > 0;
}

/**
 * Does the cell need the formula-injection apostrophe? A cell starting with = @ TAB CR LF does, and one
 * starting with + or - when it is not a number or a phone number.
 */
export function formulaGuardNeeded(v: string): boolean {
  if (v === '') return false;
  const c = v.charCodeAt(0);
  if (c === 0x3d || c === 0x40 || c === 0x09 || c === 0x0d || c === 0x0a) return true;
  if (c === 0x2b || c === 0x2d) return !isNumberOrPhoneText(v);
  return false;
}

/**
 * One cell as the engine writes it: quoted only when it holds a quote, the delimiter or a line break;
 * with `protect`, the guard apostrophe first (inside the quotes).
 */
export function csvCellText(v: string, delimiter = ',', protect = true): string {
  const guard = protect && formulaGuardNeeded(v) ? "'" : '';
  const quote = v.includes('"') || v.includes(delimiter) || v.includes('\n') || v.includes('\r');
  return quote ? `"${guard}${v.replace(/"/g, '""')}"` : `${guard}${v}`;
}
