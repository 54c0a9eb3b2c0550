// Whole-input parsing to strings, for small data: tests, template files, previews.
import { emptyFrom, recordStrings } from './parser';
import { CsvReader, type ReadOptions, type SourceInfo } from './reader';
import type { RaggedRow } from './inspect';

export interface ParseResult {
  info: SourceInfo;
  headers: string[];
  /** Data rows; with a header they are padded/truncated to its width (ragged ones listed). */
  rows: string[][];
  ragged: RaggedRow[];
}

/**
 * Parses bytes or text given whole or as chunks (each chunk boundary anywhere, even inside a character or
 * a CRLF). With `header: false`, rows are returned exactly as found.
 */
export function parseCsv(
  input: Buffer | Uint8Array | string | Iterable<Buffer | Uint8Array | string>,
  options: ReadOptions = {},
): ParseResult {
  const rows: string[][] = [];
  const ragged: RaggedRow[] = [];
  const headerless = options.header === false;
  let width = 0;
  const reader = new CsvReader(options, {
    onHeader: (info) => {
      width = info.headers.length;
    },
    onRow: (r, row) => {
      const cells = recordStrings(r);
      if (!headerless && cells.length > width && emptyFrom(r, width)) {
        cells.length = width;
        rows.push(cells);
      } else if (!headerless && cells.length !== width) {
        ragged.push({ row, line: r.line, expected: width, found: cells.length });
        const fixed = cells.slice(0, width);
        while (fixed.length < width) fixed.push('');
        rows.push(fixed);
      } else rows.push(cells);
    },
  });
  if (typeof input === 'string' || input instanceof Uint8Array) reader.push(input);
  else for (const chunk of input) reader.push(chunk);
  reader.end();
  const info = { ...(reader.info as SourceInfo), encoding: reader.encoding };
  return { info, headers: info.headers, rows, ragged };
}
