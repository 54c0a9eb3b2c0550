// Delimiter and header-row sniffing on the first bytes of a file. A delimiter wins by the consistency of
// field counts outside quotes; the header is the first record whose field count matches the body, so
// preamble lines of bank exports (account name, date range, blank line) are skipped and counted.
import { RecordParser, type RecordView } from './parser';

export type Delimiter = ',' | ';' | '\t' | '|';
export const DELIMITERS: readonly Delimiter[] = [',', ';', '\t', '|'];

const MAX_SNIFF_RECORDS = 200;

export interface SniffResult {
  delimiter: Delimiter;
  /** 1-based line of the header record. */
  headerLine: number;
  /** Field count of the body (the most common count). */
  columns: number;
}

interface Candidate {
  delimiter: Delimiter;
  score: number;
  headerLine: number;
  columns: number;
  headerIndex: number;
}

function countsFor(
  sample: Buffer,
  delimiter: Delimiter,
  final: boolean,
): { count: number; line: number }[] | null {
  const records: { count: number; line: number }[] = [];
  const parser = new RecordParser(delimiter.charCodeAt(0), (r: RecordView) => {
    records.push({ count: r.count, line: r.line });
    return records.length < MAX_SNIFF_RECORDS;
  });
  try {
    parser.push(sample);
    if (final) parser.end();
  } catch {
    // A broken sample (e.g. an unterminated quote) is reported by the real parse, with its line.
    if (records.length === 0) return null;
  }
  return records;
}

function evaluate(
  sample: Buffer,
  delimiter: Delimiter,
  final: boolean,
  headerLine?: number,
): Candidate | null {
  const records = countsFor(sample, delimiter, final);
  if (!records || records.length === 0) return null;
  let headerIndex: number;
  let columns: number;
  if (headerLine !== undefined) {
    headerIndex = records.findIndex((r) => r.line >= headerLine);
    if (headerIndex < 0) return null;
    columns = records[headerIndex].count;
  } else {
    // The body's field count is the most frequent one (ties: the larger count).
    const freq = new Map<number, number>();
    for (const r of records) freq.set(r.count, (freq.get(r.count) ?? 0) + 1);
    columns = 1;
    let best = 0;
    for (const [count, f] of freq) {
      if (f > best || (f === best && count > columns)) {
        best = f;
        columns = count;
      }
    }
    // No count repeats (a tiny or very ragged sample): the header is the first record.
    if (best === 1 && records.length > 1) columns = records[0].count;
    headerIndex = records.findIndex((r) => r.count === columns);
  }
  const body = records.slice(headerIndex);
  const consistent = body.filter((r) => r.count === columns).length;
  const score = columns > 1 ? consistent / body.length : 0;
  return { delimiter, score, headerLine: records[headerIndex].line, columns, headerIndex };
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
  const candidates = overrides.delimiter ? [overrides.delimiter] : DELIMITERS;
  let best: Candidate | null = null;
  for (const d of candidates) {
    const c = evaluate(sample, d, final, overrides.headerRow);
    if (!c) continue;
    if (!best) {
      best = c;
      continue;
    }
    if (c.score === 0 && best.score > 0) continue;
    const diff = c.score - best.score;
    // Clearly more consistent wins; when about as consistent, fewer preamble lines, then more columns.
    if (
      diff > 0.05 ||
      (Math.abs(diff) <= 0.05 &&
        (c.headerIndex < best.headerIndex ||
          (c.headerIndex === best.headerIndex && c.columns > best.columns)))
    ) {
      best = c;
    }
  }
  if (!best)
    return { delimiter: overrides.delimiter ?? ',', headerLine: overrides.headerRow ?? 1, columns: 1 };
  return {
    delimiter: best.delimiter,
    headerLine: overrides.headerRow ?? best.headerLine,
    columns: best.columns,
  };
}
