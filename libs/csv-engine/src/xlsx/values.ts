// Numbers as a person sees them in Excel: at the 15 significant digits Excel keeps (no float noise, no
// exponent). Dates and times: date-formats.ts.

const PLAIN = /^-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;

/** A stored number as Excel shows it at full precision: 15 significant digits, plain notation. */
export function formatNumber(raw: string): string {
  // Most stored numbers are already plain and short (≤ 15 significant digits, no trailing zeros).
  if (raw.length <= 16 && PLAIN.test(raw)) return raw === '-0' ? '0' : raw;
  const n = Number(raw);
  if (!Number.isFinite(n)) return raw.trim();
  if (n === 0) return '0';
  const s = String(Number(n.toPrecision(15)));
  return s.includes('e') ? expand(s) : s;
}

/** `1.5e-7` → `0.00000015`, `1e+21` → `1000000000000000000000`. */
function expand(s: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, int, frac = '', expText] = m;
  const exp = Number(expText);
  const digits = int + frac;
  const point = int.length + exp;
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`.replace(/0+$/, '');
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
