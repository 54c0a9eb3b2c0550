// Text of workbook XML as Excel and LibreOffice show it: line ends normalised the way every XML reader
// must (XML 1.0 §2.11), and the `_xHHHH_` escapes OOXML writes for characters XML cannot carry.

/** `\r\n` and a lone `\r` as `\n` (the literal characters only: a `&#13;` reference stays a CR). */
export function normalizeEol(s: string): string {
  return s.indexOf('\r') < 0 ? s : s.replace(/\r\n?/g, '\n');
}

const ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

/**
 * Decodes `_xHHHH_` escapes (ECMA-376 ST_Xstring): `a_x000D_` → `a\r`; `_x005F_` is an escaped underscore,
 * so `_x005F_x000D_` stays `_x000D_`, as Excel shows it.
 */
export function decodeEscapes(s: string): string {
  if (s.indexOf('_x') < 0) return s;
  return s.replace(ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
