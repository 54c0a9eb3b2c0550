// previewMapping: the first N output rows, quickly. Reads only the rows it shows plus the inference sample
// (1,000 rows by default here), then stops and releases the input.
import { applyMapping, type CsvInput } from './mapping';
import { parseCsv } from './parse';
import type { ApplyOptions, ApplyStats, MappingPair } from './types';

export interface PreviewOptions extends Omit<
  ApplyOptions,
  'maxRows' | 'encoding' | 'bom' | 'header' | 'delimiter' | 'lineEnding'
> {
  /** Output rows to return. Default 20. */
  rows?: number;
}

export interface PreviewResult {
  headers: string[];
  rows: string[][];
  stats: ApplyStats;
}

export async function previewMapping(
  input: CsvInput,
  templateHeaders: readonly string[],
  mappings: readonly MappingPair[],
  options: PreviewOptions = {},
): Promise<PreviewResult> {
  const { rows: n = 20, ...rest } = options;
  const { output, stats } = applyMapping(input, templateHeaders, mappings, {
    ...rest,
    inferenceRows: rest.inferenceRows ?? 1000,
    maxRows: n,
    header: false,
    lineEnding: '\n',
  });
  const parts: Buffer[] = [];
  for await (const chunk of output) parts.push(chunk as Buffer);
  const s = await stats;
  const body = Buffer.concat(parts);
  const rows =
    body.length === 0
      ? []
      : parseCsv(body, { header: false, delimiter: ',', encoding: 'utf-8' }).rows.map((r) => {
          const fixed = r.slice(0, templateHeaders.length);
          while (fixed.length < templateHeaders.length) fixed.push('');
          return fixed;
        });
  return { headers: [...templateHeaders], rows, stats: s };
}
