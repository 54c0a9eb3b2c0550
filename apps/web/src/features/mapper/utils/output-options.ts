// How the result file is written, as the result screen lets a person choose it (issue 20): either "match
// the template" (the api copies delimiter, BOM, line ending and encoding from the uploaded template) or
// explicit choices. Pure functions, so the wizard, the result screen and the tests share one meaning.
import type {
  OutputDelimiter,
  OutputEncodingName as OutputEncoding,
  OutputLineEnding,
  QuoteStyle as OutputQuoteStyle,
  ResolvedOutputOptions,
} from '@csv-mapper/contracts';

export type { OutputDelimiter, OutputEncoding, OutputLineEnding, OutputQuoteStyle };

export interface OutputChoice {
  matchTemplate: boolean;
  delimiter: OutputDelimiter;
  quoteStyle: OutputQuoteStyle;
  lineEnding: OutputLineEnding;
  bom: boolean;
  encoding: OutputEncoding;
}

/** "Match the template" is the default; the explicit fields start at the api's own defaults. */
export const DEFAULT_OUTPUT_CHOICE: OutputChoice = {
  matchTemplate: true,
  delimiter: ',',
  quoteStyle: 'minimal',
  lineEnding: '\r\n',
  bom: false,
  encoding: 'utf-8',
};

export const DELIMITER_OPTIONS: { value: OutputDelimiter; label: string }[] = [
  { value: ',', label: 'Comma (,)' },
  { value: ';', label: 'Semicolon (;)' },
  { value: '\t', label: 'Tab' },
  { value: '|', label: 'Pipe (|)' },
];
export const QUOTE_OPTIONS: { value: OutputQuoteStyle; label: string }[] = [
  { value: 'minimal', label: 'Only where needed' },
  { value: 'all', label: 'Every value' },
];
export const LINE_ENDING_OPTIONS: { value: OutputLineEnding; label: string }[] = [
  { value: '\r\n', label: 'Windows (CRLF)' },
  { value: '\n', label: 'Unix / macOS (LF)' },
];
export const ENCODING_OPTIONS: { value: OutputEncoding; label: string }[] = [
  { value: 'utf-8', label: 'UTF-8' },
  { value: 'windows-1252', label: 'Windows-1252' },
];

/** Select values cannot hold a raw TAB or CR/LF readably, so the form uses these keys. */
export const DELIMITER_KEYS: Record<OutputDelimiter, string> = {
  ',': 'comma',
  ';': 'semicolon',
  '\t': 'tab',
  '|': 'pipe',
};
export const LINE_ENDING_KEYS: Record<OutputLineEnding, string> = { '\r\n': 'crlf', '\n': 'lf' };

export function delimiterFromKey(key: string): OutputDelimiter {
  const hit = (Object.entries(DELIMITER_KEYS) as [OutputDelimiter, string][]).find(([, k]) => k === key);
  return hit ? hit[0] : ',';
}
export function lineEndingFromKey(key: string): OutputLineEnding {
  return key === 'lf' ? '\n' : '\r\n';
}

const label = <T extends string>(list: { value: T; label: string }[], v: T | undefined) =>
  list.find((o) => o.value === v)?.label ?? String(v ?? '');

/**
 * The `options` of POST /api/process for this choice; none for "match the template", which is the api's
 * default (so a request without options and one from the default form mean the same).
 */
export function requestOptions(choice: OutputChoice): Record<string, unknown> | undefined {
  if (choice.matchTemplate) return undefined;
  return {
    matchTemplate: false,
    delimiter: choice.delimiter,
    quoteStyle: choice.quoteStyle,
    lineEnding: choice.lineEnding,
    bom: choice.bom,
    encoding: choice.encoding,
  };
}

/** What the written file used, as the api reports it (`output` of the process answer / job). */
export type AppliedOutputOptions = Partial<ResolvedOutputOptions>;

/** Label/value lines a person reads on the result screen ("Delimiter: Semicolon (;)"). */
export function describeOptions(applied: AppliedOutputOptions): { label: string; value: string }[] {
  const rows: { label: string; value: string }[] = [];
  if (applied.matchedTemplate !== undefined)
    rows.push({
      label: 'Format',
      value: applied.matchedTemplate ? 'Matches the template' : 'Chosen by you',
    });
  if (applied.delimiter !== undefined)
    rows.push({ label: 'Delimiter', value: label(DELIMITER_OPTIONS, applied.delimiter as OutputDelimiter) });
  if (applied.quoteStyle !== undefined)
    rows.push({ label: 'Quotes', value: label(QUOTE_OPTIONS, applied.quoteStyle as OutputQuoteStyle) });
  if (applied.lineEnding !== undefined)
    rows.push({
      label: 'Line ending',
      value: label(LINE_ENDING_OPTIONS, applied.lineEnding as OutputLineEnding),
    });
  if (applied.bom !== undefined) rows.push({ label: 'Byte order mark', value: applied.bom ? 'Yes' : 'No' });
  if (applied.encoding !== undefined)
    rows.push({
      label: 'Encoding',
      value: label(ENCODING_OPTIONS, applied.encoding.toLowerCase() as OutputEncoding),
    });
  return rows;
}

/** The explicit choice a form starts from after a run: what that run applied, else the previous choice. */
export function choiceFromApplied(
  applied: AppliedOutputOptions | undefined,
  prev: OutputChoice,
): OutputChoice {
  if (!applied) return prev;
  const pick = <T extends string>(list: { value: T }[], v: string | undefined, fallback: T): T =>
    list.find((o) => o.value === v?.toLowerCase() || o.value === v)?.value ?? fallback;
  return {
    matchTemplate: applied.matchedTemplate ?? prev.matchTemplate,
    delimiter: pick(DELIMITER_OPTIONS, applied.delimiter, prev.delimiter),
    quoteStyle: pick(QUOTE_OPTIONS, applied.quoteStyle, prev.quoteStyle),
    lineEnding: pick(LINE_ENDING_OPTIONS, applied.lineEnding, prev.lineEnding),
    bom: applied.bom ?? prev.bom,
    encoding: pick(ENCODING_OPTIONS, applied.encoding, prev.encoding),
  };
}

/**
 * The first lines of the written text, split on the line ending actually used, with the BOM removed —
 * for the "first rows of the output" panel (shown raw, so delimiters and quotes are visible).
 */
export function firstLines(text: string, count: number): string[] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines: string[] = [];
  let start = 0;
  let inQuotes = false;
  for (let i = 0; i < body.length && lines.length < count; i++) {
    const c = body[i];
    if (c === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (c === '\n' || c === '\r')) {
      lines.push(body.slice(start, i));
      if (c === '\r' && body[i + 1] === '\n') i++;
      start = i + 1;
    }
  }
  if (lines.length < count && start < body.length) lines.push(body.slice(start));
  return lines;
}
