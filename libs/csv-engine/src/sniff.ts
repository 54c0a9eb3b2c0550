// Delimiter and header-row sniffing on the first bytes of a file (at most the reader's sniff sample).
// Every delimiter is tried; each of the first 100 non-blank records is a header candidate, scored by what
// follows it: do the records below fit its width (a trailing delimiter on either side tolerated), are its
// cells filled and written like column names, do the columns below hold one kind of value (dates, amounts,
// emails) that the candidate's cells are not? Title lines, account blocks and sentences above a table
// score low because the table's rows don't fit them. When the best candidate reads like the rows after it
// (a date where they have dates, an amount where they have amounts) the file has no header row.
import { DELIMITERS, type Delimiter } from './delimiters';
import { RecordParser, recordStrings, type RecordView } from './parser';

/** The parser's flag of a field with a quote in the middle. */
const F_MALFORMED = 3;

export { DELIMITERS, type Delimiter };

/** Records before the header that may be skipped (title lines, account blocks, sentences). */
const MAX_CANDIDATES = 100;
/** Records after a candidate that decide its score. */
const BODY = 40;
const MAX_RECORDS = MAX_CANDIDATES + BODY;

export interface SniffResult {
  delimiter: Delimiter;
  /** 1-based line of the header record; 0 when the file has no header row (every record is data). */
  headerLine: number;
  /** Columns the records below the header use (trailing empty fields not counted). */
  columns: number;
}

// What a cell looks like. Typed kinds (number … url) are what a column of data holds and a header does not.
const EMPTY = 0;
const WORD = 1; // text that could be a column name
const NUMBER = 2;
const DATE = 3;
const EMAIL = 4;
const URL_KIND = 5;
const OTHER = 6; // long text, codes without letters …
const KINDS = 7;

interface Rec {
  line: number;
  /** Fields in the record. */
  count: number;
  /** Fields up to the last non-empty one. */
  eff: number;
  filled: number;
  /** Fields with a quote in the middle (text after a closing quote, a stray quote): a wrong delimiter. */
  malformed: number;
  kinds: Uint8Array;
  cells: string[];
}

const NUMBER_RE =
  /^[-+−]?\(?[-+−]?\s*(?:\p{Sc}|[A-Z]{3}\s)?\s*[-+−]?(?:\d[\d.,'’\s\u00a0\u202f]*)?\d(?:[.,]\d+)?\s*(?:\p{Sc}|\s[A-Z]{3}|%|-)?\)?\s*(?:[CD][Rr]\.?)?$/u;
const DIGIT_DATE_RE =
  /^(?:\d{1,2}([./ -])\d{1,2}\1(?:\d{4}|\d{2})|\d{4}([./-])\d{1,2}\2\d{1,2}|(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))(?:[ T]\d{1,2}:\d{2}.*)?\.?$/;
const MONTHS =
  'jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mär|mrz|mai|okt|dez|janv|févr|fevr|mars|avr|juil|déc|ene|abr|ago|dic|gen|mag|giu|lug|set|ott|maj|okt';
const NAMED_DATE_RE = new RegExp(
  `^(?:\\d{1,2}[ .\\-/]*(?:${MONTHS})\\p{L}*\\.?[ .\\-/,]*\\d{2,4}|(?:${MONTHS})\\p{L}*\\.?[ .\\-/]*\\d{1,2}(?:st|nd|rd|th)?,?[ .\\-/]*\\d{2,4})(?:[ T,]+\\d{1,2}:\\d{2}.*)?$`,
  'iu',
);
const TIME_RE = /^\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?$/i;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_RE = /^(?:https?:\/\/|www\.)\S+$/i;
const LETTER_RE = /\p{L}/u;

function kindOf(cell: string): number {
  const v = cell.trim();
  if (v === '') return EMPTY;
  const c = v.charCodeAt(0);
  const digitish =
    (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x28 || c > 0x7f || c === 0x24;
  if (digitish || v.length <= 24) {
    if (DIGIT_DATE_RE.test(v) || TIME_RE.test(v)) return DATE;
    if (NUMBER_RE.test(v)) return NUMBER;
  }
  if (LETTER_RE.test(v) && v.length <= 40 && NAMED_DATE_RE.test(v)) return DATE;
  if (v.includes('@') && EMAIL_RE.test(v)) return EMAIL;
  if (URL_RE.test(v)) return URL_KIND;
  if (LETTER_RE.test(v) && v.length <= 60) return WORD;
  return OTHER;
}

function toRec(line: number, cells: string[], malformed = 0): Rec {
  const kinds = new Uint8Array(cells.length);
  let eff = 0;
  let filled = 0;
  for (let k = 0; k < cells.length; k++) {
    const kind = kindOf(k === 0 ? cells[k].replace(/^\uFEFF/, '') : cells[k]);
    kinds[k] = kind;
    if (kind !== EMPTY) {
      eff = k + 1;
      filled++;
    }
  }
  return { line, count: cells.length, eff, filled, malformed, kinds, cells };
}

/**
 * The sample's records with this delimiter (blank and all-empty records left out), or null when the
 * delimiter's reading is broken (an unterminated quote): then the lines are split on the delimiter
 * without quoting, so that the real parse, not the sniff, reports the broken quote.
 */
function recordsFor(sample: string | Buffer, delimiter: Delimiter, final: boolean): Rec[] {
  const out: Rec[] = [];
  let lastLine = 0;
  const parser = new RecordParser(delimiter.charCodeAt(0), (r: RecordView) => {
    lastLine = r.line;
    let malformed = 0;
    for (let k = 0; k < r.count; k++) if ((r.flagsOf(k) & 3) === F_MALFORMED) malformed++;
    const rec = toRec(r.line, recordStrings(r), malformed);
    if (rec.eff > 0) out.push(rec);
    return out.length < MAX_RECORDS;
  });
  const buf = typeof sample === 'string' ? Buffer.from(sample, 'utf8') : sample;
  let broken = false;
  try {
    parser.push(buf);
    if (final) parser.end();
  } catch {
    broken = true;
  }
  if (broken && (final || out.length < 2)) return splitLines(buf, delimiter, final);
  // A record cut at the end of a partial sample is not a whole record.
  if (!final && !parser.stopped && out.length > 1 && out[out.length - 1].line === lastLine) out.pop();
  return out;
}

function splitLines(buf: Buffer, delimiter: Delimiter, final: boolean): Rec[] {
  const lines = buf.toString('utf8').split(/\r\n|\n|\r/);
  if (!final) lines.pop();
  const out: Rec[] = [];
  for (let i = 0; i < lines.length && out.length < MAX_RECORDS; i++) {
    const rec = toRec(i + 1, lines[i].split(delimiter));
    if (rec.eff > 0) out.push(rec);
  }
  return out;
}

/**
 * How well `r` fits as a row under header `h`: 1 when neither is wider (trailing empty fields on either side
 * tolerated), less for a row that stops early or spills a few fields past the header, 0 for a row much
 * wider than the candidate (a title or account line above a table).
 */
function fit(h: Rec, r: Rec): number {
  if (r.eff <= h.count) return h.eff <= r.count ? 1 : 0.75;
  return h.count >= 0.6 * r.eff && h.count >= 3 ? 0.5 : 0;
}

interface Scored {
  index: number;
  score: number;
  /** How well the records below read as a table (delimiters are compared on this). */
  table: number;
  /** Columns the body uses. */
  width: number;
  /** The candidate reads like the rows after it: no header row. */
  dataLike: boolean;
  /** 0–1: how many rows below back the score (few: the last records of a file). */
  sure: number;
}

/** Scores the record at `i` as the header of the records after it. */
function scoreCandidate(recs: readonly Rec[], i: number, counts: Int32Array): Scored {
  const h = recs[i];
  const end = Math.min(recs.length, i + 1 + BODY);
  let body = 0;
  let fitting = 0;
  let rows = 0;
  let malformed = h.malformed > 0 ? 1 : 0;
  let width = 0;
  const cols = h.count;
  counts.fill(0, 0, cols * KINDS);
  for (let j = i + 1; j < end; j++) {
    const r = recs[j];
    body++;
    if (r.malformed > 0) malformed++;
    const f = fit(h, r);
    if (f === 0) continue;
    fitting += f;
    rows++;
    if (r.eff > width) width = r.eff;
    const n = Math.min(cols, r.count);
    for (let k = 0; k < n; k++) counts[k * KINDS + r.kinds[k]]++;
  }
  if (body === 0) {
    // Nothing below (a template: the header alone): the first record, filled and written like names.
    const head = h.filled > 0 ? wordShare(h) : 0;
    const score = h.filled / Math.max(1, h.eff) + head;
    // Nothing below to compare delimiters on: the one that splits the record into more fields wins.
    const table = Math.min(h.eff, 8) / 8;
    return { index: i, score, table, width: h.eff, dataLike: typedCells(h) >= 2, sure: 0 };
  }
  const fitShare = fitting / body;
  width = Math.max(width, 1);
  const fill = h.filled / Math.max(h.eff, width);
  const head = wordShare(h);
  // Columns below holding one kind of value: how pure they are, and does the candidate differ there?
  let typed = 0;
  let differs = 0;
  let contrast = 0;
  let same = 0;
  let puritySum = 0;
  let purityCols = 0;
  for (let k = 0; k < Math.min(cols, width); k++) {
    let nonEmpty = 0;
    let best = 0;
    let bestKind = EMPTY;
    for (let t = 1; t < KINDS; t++) {
      const c = counts[k * KINDS + t];
      nonEmpty += c;
      if (c > best) {
        best = c;
        bestKind = t;
      }
    }
    if (nonEmpty === 0) continue;
    puritySum += best / nonEmpty;
    purityCols++;
    if (bestKind >= NUMBER && bestKind <= URL_KIND && best >= nonEmpty * 0.7) {
      const mine = h.kinds[k];
      // An empty cell says little over a column that is often empty (the credit side of debit/credit).
      if (mine === EMPTY && nonEmpty < rows * 0.8) continue;
      typed++;
      if (mine === bestKind) same++;
      else if (mine === EMPTY) contrast += 0.5;
      else {
        contrast++;
        differs++;
      }
    }
  }
  // A few rows below (the last records of a file) say little: their evidence counts less.
  const sure = Math.min(1, rows / 4);
  const contrastShare = 0.5 + ((typed > 0 ? contrast / typed : 0.5) - 0.5) * sure;
  const purity = 0.5 + ((purityCols > 0 ? puritySum / purityCols : 0.5) - 0.5) * sure;
  const unique = h.filled > 0 ? new Set(h.cells.filter((c) => c.trim() !== '')).size / h.filled : 0;
  const table = 3 * fitShare + 2 * purity + (0.5 * Math.min(width, 8)) / 8 - (3 * malformed) / (body + 1);
  const score =
    3 * fitShare +
    fill +
    head +
    1.5 * contrastShare +
    purity +
    (0.5 * Math.min(width, 8)) / 8 +
    0.3 * unique -
    // a record wider than the table below it (a sentence split on commas, say) is not its header
    (h.eff > width ? (0.5 * (h.eff - width)) / h.eff : 0);
  // Data-like: where the rows below hold dates or amounts, so does the candidate (an empty cell is no sign).
  const dataLike = typed > 0 ? same > 0 && same >= (same + differs) * 0.75 && head < 0.9 : typedCells(h) >= 2;
  return { index: i, score, table, width, dataLike, sure };
}

/** Cells holding dates, amounts, emails or links: what column names never are. */
function typedCells(h: Rec): number {
  let n = 0;
  for (let k = 0; k < h.count; k++) if (h.kinds[k] >= NUMBER && h.kinds[k] <= URL_KIND) n++;
  return n;
}

/** Share of the candidate's filled cells that read like column names. */
function wordShare(h: Rec): number {
  if (h.filled === 0) return 0;
  let words = 0;
  for (let k = 0; k < h.count; k++) if (h.kinds[k] === WORD) words++;
  return words / h.filled;
}

interface Choice {
  delimiter: Delimiter;
  score: number;
  table: number;
  headerLine: number;
  columns: number;
  index: number;
}

function choose(recs: readonly Rec[], delimiter: Delimiter, headerLine: number | undefined): Choice | null {
  if (recs.length === 0) return null;
  const maxCols = recs.reduce((m, r) => Math.max(m, r.count), 0);
  const counts = new Int32Array(maxCols * KINDS);
  if (headerLine !== undefined) {
    const i = recs.findIndex((r) => r.line >= headerLine);
    if (i < 0) return null;
    const s = scoreCandidate(recs, i, counts);
    return { delimiter, score: s.score, table: s.table, headerLine, columns: s.width, index: i };
  }
  let best: Scored | null = null;
  const last = Math.min(recs.length, MAX_CANDIDATES);
  const scored: Scored[] = [];
  let rowsOfBest = 0;
  for (let i = 0; i < last; i++) {
    const s = scoreCandidate(recs, i, counts);
    scored.push(s);
    // Clearly better wins; about as good, the earlier record (a header comes before its rows). A record
    // with few rows below has to be better by more: its evidence is thin, and the records above are lost.
    if (!best || s.score > best.score + 0.15 + 0.6 * (1 - s.sure)) {
      best = s;
      rowsOfBest = 0;
    } else if (fit(recs[best.index], recs[i]) === 1 && typedCells(recs[i]) > 0) {
      // Deep in the rows of the best header so far: a header further down would have to follow them.
      if (++rowsOfBest >= BODY / 2) break;
    } else rowsOfBest = 0;
  }
  const b = best as Scored;
  // A record holding dates or amounts, below a record of the same table that reads like data, is a row
  // too: the table has no header row.
  const rowAbove =
    !b.dataLike &&
    typedCells(recs[b.index]) > 0 &&
    scored.some((s) => s.index < b.index && s.dataLike && s.table >= b.table - 0.5);
  const headerLine2 = b.dataLike || rowAbove ? 0 : recs[b.index].line;
  return {
    delimiter,
    score: b.score,
    table: b.table,
    headerLine: headerLine2,
    columns: b.width,
    index: b.index,
  };
}

/**
 * Sniffs delimiter and header line from a UTF-8 sample. `final` says the sample is the whole file.
 * Overrides win: a given delimiter is not sniffed, a given headerRow is not detected.
 */
export function sniff(
  sample: Buffer,
  final: boolean,
  overrides: { delimiter?: Delimiter; headerRow?: number } = {},
): SniffResult {
  const m = lastSniff;
  if (
    m !== null &&
    m.final === final &&
    m.delimiter === overrides.delimiter &&
    m.headerRow === overrides.headerRow &&
    m.sample.equals(sample)
  ) {
    return { ...m.result };
  }
  const result = sniffSample(sample, final, overrides);
  lastSniff = {
    sample: Buffer.from(sample),
    final,
    delimiter: overrides.delimiter,
    headerRow: overrides.headerRow,
    result: { ...result },
  };
  return result;
}

/**
 * The last sniff of this thread, for the next reader of the same bytes: a mapping with a profiling pass
 * (auto dates and amounts) reads the file's start twice, and sniffing it — the first thing a run does, on
 * code not yet warm — cost as much as mapping thousands of rows. sniff() is a function of its arguments
 * alone, so the answer is the same.
 */
let lastSniff: {
  sample: Buffer;
  final: boolean;
  delimiter?: Delimiter;
  headerRow?: number;
  result: SniffResult;
} | null = null;

function sniffSample(
  sample: Buffer,
  final: boolean,
  overrides: { delimiter?: Delimiter; headerRow?: number },
): SniffResult {
  const candidates = overrides.delimiter ? [overrides.delimiter] : DELIMITERS;
  let best: Choice | null = null;
  for (const d of candidates) {
    // A delimiter that never occurs cannot split anything (one column, which ',' already stands for).
    if (candidates.length > 1 && d !== ',' && !sample.includes(d.charCodeAt(0))) continue;
    const c = choose(recordsFor(sample, d, final), d, overrides.headerRow);
    if (!c) continue;
    // The delimiter that makes the best table wins (about as good: more columns, then the better header).
    const close = best !== null && Math.abs(c.table - best.table) <= 0.1;
    if (
      !best ||
      (best.columns <= 1 && c.columns > 1) ||
      (c.columns > 1 &&
        (c.table > best.table + 0.1 ||
          (close && (c.columns > best.columns || (c.columns === best.columns && c.score > best.score)))))
    ) {
      best = c;
    }
  }
  if (!best)
    return { delimiter: overrides.delimiter ?? ',', headerLine: overrides.headerRow ?? 1, columns: 1 };
  return { delimiter: best.delimiter, headerLine: best.headerLine, columns: best.columns };
}
