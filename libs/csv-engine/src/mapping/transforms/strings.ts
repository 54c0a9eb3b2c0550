// The text transforms of issue 22, as pure functions of a cell's text: combine, split (by separator or
// a named preset), mapValues, default, slug, truncate and replace. The chain op (mapping/chain.ts)
// compiles a pair's steps into these once per run; each is called once per cell and holds nothing
// between rows, so a run stays streaming.
import type { RE2JS } from 're2js';
import { graphemeLength, graphemeSegmenter } from '../../../../rules/src/characters';
import { MappingError } from '../../errors';
import type { MapValuesTransform, SplitTransform } from '../../types';

// ---- combine ----

/** A combine pattern: literal texts around column references, `lits.length === cols.length + 1`. */
export interface CombinePattern {
  lits: string[];
  cols: string[];
}

/** Parses `{First Name} {Last Name}`; `{{` and `}}` stand for braces. Throws MappingError. */
export function parseCombinePattern(pattern: string, column: string): CombinePattern {
  const lits: string[] = [];
  const cols: string[] = [];
  let lit = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if ((c === '{' || c === '}') && pattern[i + 1] === c) {
      lit += c;
      i++;
    } else if (c === '{') {
      const end = pattern.indexOf('}', i + 1);
      if (end < 0) throw new MappingError(`The combine pattern for "${column}" has a "{" without its "}".`);
      const name = pattern.slice(i + 1, end);
      if (name === '') throw new MappingError(`The combine pattern for "${column}" has an empty "{}".`);
      lits.push(lit);
      cols.push(name);
      lit = '';
      i = end;
    } else if (c === '}') {
      throw new MappingError(`The combine pattern for "${column}" has a "}" without its "{" (write "}}").`);
    } else lit += c;
  }
  lits.push(lit);
  if (cols.length === 0) {
    throw new MappingError(
      `The combine pattern for "${column}" names no column: write columns in braces, e.g. {First Name} {Last Name}.`,
    );
  }
  return { lits, cols };
}

/**
 * Fills a parsed pattern. Values are trimmed; a blank value is dropped with the separator before it (the
 * separator kept is the first one after the last value written); the result is trimmed. Values are
 * otherwise kept as they are. All values blank → ''.
 */
export function combineValues(p: CombinePattern, values: readonly string[]): string {
  let out = '';
  let next: string | null = null;
  for (let k = 0; k < values.length; k++) {
    const v = trimAscii(values[k]);
    if (v === '') continue;
    let sep = next === null ? p.lits[0] : next;
    // A separator's space next to a space already written is doubled: keep one.
    if (out.endsWith(' ') && sep.startsWith(' ')) sep = sep.replace(ASCII_WS_START, '');
    out += sep + v;
    next = p.lits[k + 1];
  }
  if (next === null) return '';
  return trimAscii(out + p.lits[p.lits.length - 1]);
}

// combine trims ASCII white space only (space, tab, CR, LF), like its byte path (transforms/combine.ts).
const ASCII_WS_START = /^[ \t\r\n]+/;
const ASCII_WS_END = /[ \t\r\n]+$/;
function trimAscii(v: string): string {
  return v.replace(ASCII_WS_START, '').replace(ASCII_WS_END, '');
}

// ---- split ----

const TITLES = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'prof',
  'sir',
  'dame',
  'rev',
  'fr',
  'hon',
  'sr.',
  'sra',
  'srta',
  'herr',
  'frau',
  'mme',
  'mlle',
  'm',
]);
const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'v', 'phd', 'md', 'esq', 'dds', 'cpa', 'mba', 'jd']);
/** Particles that begin a family name ("de la Cruz", "van der Berg", "bin Laden"). */
const PARTICLES = new Set([
  'de',
  'del',
  'della',
  'der',
  'den',
  'di',
  'da',
  'das',
  'dos',
  'du',
  'la',
  'le',
  'van',
  'von',
  'ter',
  'ten',
  'bin',
  'ibn',
  'al',
  'el',
  'mac',
  'st',
  'y',
]);

const bare = (w: string): string => w.toLowerCase().replace(/[.,]/g, '');

/** "Dr. Ana María de la Cruz Jr." → { first: "Ana María", last: "de la Cruz" }; "Cruz, Ana" too. */
export function splitPersonName(value: string): { first: string; last: string } {
  const v = value.trim().replace(/\s+/g, ' ');
  if (v === '') return { first: '', last: '' };
  const comma = v.indexOf(',');
  if (comma > 0) {
    // "Last, First [Middle]" — unless what follows the comma is only a suffix ("Ana Cruz, Jr.").
    const after = v.slice(comma + 1).trim();
    const afterWords = after.split(' ').filter((w) => !SUFFIXES.has(bare(w)) && !TITLES.has(bare(w)));
    if (afterWords.length > 0) {
      return { first: afterWords.join(' '), last: v.slice(0, comma).trim() };
    }
  }
  let words = v.split(/[ ,]+/).filter((w) => w !== '');
  while (words.length > 1 && TITLES.has(bare(words[0]))) words = words.slice(1);
  while (words.length > 1 && SUFFIXES.has(bare(words[words.length - 1]))) words = words.slice(0, -1);
  if (words.length === 1) return { first: words[0], last: '' };
  let start = words.length - 1;
  for (let k = 1; k < words.length - 1; k++) {
    if (PARTICLES.has(bare(words[k]))) {
      start = k;
      break;
    }
  }
  return { first: words.slice(0, start).join(' '), last: words.slice(start).join(' ') };
}

const CITY_STATE_ZIP = /^(.*?)[,\s]+([A-Za-z]{2})\.?\s+(\d{5}(?:-\d{4})?)$/;
const CITY_STATE = /^(.*?)\s*,\s*([A-Za-z]{2})\.?$/;

/** "Springfield, IL 62704" → { city, state, zip }; what cannot be read stays in city. */
export function splitCityStateZip(value: string): { city: string; state: string; zip: string } {
  const v = value.trim().replace(/\s+/g, ' ');
  const m = CITY_STATE_ZIP.exec(v);
  if (m) return { city: m[1].replace(/,$/, '').trim(), state: m[2].toUpperCase(), zip: m[3] };
  const c = CITY_STATE.exec(v);
  if (c) return { city: c[1], state: c[2].toUpperCase(), zip: '' };
  return { city: v, state: '', zip: '' };
}

/** The split step as a function of the cell's text. */
export function compileSplit(t: SplitTransform, column: string): (v: string) => string {
  if (t.preset === 'personName') {
    if (t.part !== 'first' && t.part !== 'last') {
      throw new MappingError(`Split by person name for "${column}" takes part "first" or "last".`);
    }
    const part = t.part;
    return (v) => splitPersonName(v)[part];
  }
  if (t.preset === 'cityStateZip') {
    if (t.part !== 'city' && t.part !== 'state' && t.part !== 'zip') {
      throw new MappingError(
        `Split by city, state and ZIP for "${column}" takes part "city", "state" or "zip".`,
      );
    }
    const part = t.part;
    return (v) => splitCityStateZip(v)[part];
  }
  if (t.preset !== undefined) throw new MappingError(`Unknown split preset for "${column}".`);
  if (typeof t.separator !== 'string' || t.separator === '') {
    throw new MappingError(`Split for "${column}" needs a separator (e.g. ",") or a preset.`);
  }
  if (typeof t.part !== 'number' || !Number.isInteger(t.part)) {
    throw new MappingError(`Split for "${column}" needs a part number: 0 is the first part, -1 the last.`);
  }
  const sep = t.separator;
  const part = t.part;
  return (v) => {
    const parts = v.split(sep);
    const k = part < 0 ? parts.length + part : part;
    return k >= 0 && k < parts.length ? parts[k].trim() : '';
  };
}

// ---- mapValues, default ----

export function compileMapValues(t: MapValuesTransform, column: string): (v: string) => string {
  if (typeof t.table !== 'object' || t.table === null || Array.isArray(t.table)) {
    throw new MappingError(`The value table for "${column}" must be an object of from → to.`);
  }
  const ci = t.caseInsensitive === true;
  const table = new Map<string, string>();
  for (const [from, to] of Object.entries(t.table)) {
    if (typeof to !== 'string')
      throw new MappingError(`The value table for "${column}" must map text to text.`);
    table.set(ci ? from.trim().toLowerCase() : from.trim(), to);
  }
  const o = t.otherwise ?? 'keep';
  const fixed = typeof o === 'object' && o !== null && typeof o.value === 'string' ? o.value : null;
  if (o !== 'keep' && o !== 'blank' && fixed === null) {
    throw new MappingError(`"otherwise" for "${column}" must be "keep", "blank" or { "value": "…" }.`);
  }
  return (v) => {
    const key = ci ? v.trim().toLowerCase() : v.trim();
    const to = table.get(key);
    if (to !== undefined) return to;
    if (o === 'keep' || key === '') return v;
    return o === 'blank' ? '' : (fixed as string);
  };
}

export function defaultValue(v: string, value: string): string {
  return v.trim() === '' ? value : v;
}

// ---- slug ----

const FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
  '&': ' and ',
};
const FOLD_RE = /[ßæœøđðłþı&]/g;

/** URL handle: lowercase, ASCII-folded ("Crème Brûlée" → "creme-brulee"), words joined by single hyphens. */
export function slugify(v: string): string {
  return v
    .toLowerCase()
    .replace(FOLD_RE, (c) => FOLDS[c])
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

// ---- truncate ----

// User-perceived characters as the maxLength rule counts them (libs/rules): one Segmenter, made on first
// use (creating one loads ICU's break rules, which a run without truncate need not pay for).
export { graphemeLength };

/** The first `length` user-perceived characters; never splits a surrogate pair or a combined character. */
export function truncateText(v: string, length: number): string {
  if (v.length <= length) return v;
  let n = 0;
  for (const { index } of graphemeSegmenter().segment(v)) {
    if (n === length) return v.slice(0, index);
    n++;
  }
  return v;
}

// ---- replace ----

/** Longest text a regular expression is run on (longer cells are left as they are, with a warning). */
export const REGEX_MAX_CELL = 64 * 1024;

/**
 * The replace step. Literal find: every occurrence. Regex: RE2 syntax run by re2js, a linear-time
 * engine — matching time grows with pattern × cell length, never exponentially, so a hostile pattern
 * such as (a+)+$ cannot hang the run (V8's backtracking RegExp could). Backreferences and lookaround,
 * which need backtracking, are refused when the mapping is checked.
 */
export function compileReplace(
  find: string,
  replacement: string,
  regex: boolean,
  column: string,
): (v: string) => string | null {
  if (typeof find !== 'string' || find === '')
    throw new MappingError(`Replace for "${column}" needs text to find.`);
  if (typeof replacement !== 'string')
    throw new MappingError(`Replace for "${column}" needs a replacement text.`);
  if (!regex) return (v) => (v.includes(find) ? v.split(find).join(replacement) : v);
  let re: RE2JS;
  try {
    // Loaded on first use (only regex replaces need it): ~20 ms of start-up otherwise.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { RE2JS: Re2 } = require('re2js') as typeof import('re2js');
    re = Re2.compile(find);
  } catch (err) {
    throw new MappingError(
      `The regular expression for "${column}" cannot be used: ${(err as Error).message}. Backreferences and lookaround are not supported.`,
    );
  }
  return (v) => (v.length > REGEX_MAX_CELL ? null : re.matcher(v).replaceAll(replacement));
}
