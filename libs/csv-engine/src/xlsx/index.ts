// Excel workbooks (.xlsx) as a source: recognised by content, inspected like a CSV, and read as CSV text
// that flows into the same reader, inspector and mapper (one path). Memory stays flat: the file is read
// in passes from its opener; only the shared strings table is held (it is capped with the other parts).
import { CsvInspector, type InspectOptions, type InspectResult } from '../inspect';
import { chunksOf } from '../input';
import { CsvEngineError, EmptyFileError, UnsupportedWorkbookError } from '../errors';
import { openWorkbook, SheetToCsv, findSheet, type Workbook } from './workbook';
import { readEntries, type EntrySink, type FileOpener, type WorkbookLimits, type ZipEntry } from './zip';

export { DEFAULT_WORKBOOK_LIMITS, type FileOpener, type WorkbookLimits } from './zip';

export type SourceFormat = 'csv' | 'xlsx';

export interface SheetSummary {
  name: string;
  /** Non-empty rows (title rows and the header included). */
  rows: number;
  /** Hidden (or very hidden) in Excel: listed, never chosen by default. */
  hidden?: boolean;
}

export interface WorkbookInspection {
  sheets: SheetSummary[];
  /** The sheet that was inspected. */
  sheet: string;
  inspection: InspectResult;
}

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function startsWith(head: Uint8Array, sig: number[]): boolean {
  return head.length >= sig.length && sig.every((b, i) => head[i] === b);
}

/** What the first bytes say: a ZIP (maybe a workbook), an OLE container (.xls or encrypted), or text. */
export function detectFormat(head: Uint8Array): 'zip' | 'ole' | 'text' {
  if (startsWith(head, ZIP_SIGNATURE)) return 'zip';
  if (startsWith(head, OLE_SIGNATURE)) return 'ole';
  return 'text';
}

/**
 * The error for an OLE container. Password-protected .xlsx files are OLE containers holding an
 * "EncryptionInfo" stream (its name is in the directory, UTF-16LE); anything else is a legacy .xls.
 */
export function oleError(head: Uint8Array): UnsupportedWorkbookError {
  const name = Buffer.from('EncryptionInfo', 'utf16le');
  if (Buffer.from(head.buffer, head.byteOffset, head.byteLength).includes(name)) {
    return new UnsupportedWorkbookError(
      'This workbook is password-protected, so it cannot be read. Open it in Excel, remove the password (File > Info > Protect Workbook) and save it as .xlsx, or save it as CSV, then upload it again.',
    );
  }
  return new UnsupportedWorkbookError(
    'This is a legacy Excel .xls file, which is not read. Open it in Excel and save it as .xlsx (Excel Workbook) or as CSV, then upload it again.',
  );
}

function defaultSheet(wb: Workbook, counts: Map<string, number>): string {
  const visible = wb.sheets.filter((s) => !s.hidden);
  const pick =
    visible.find((s) => (counts.get(s.name) ?? 0) > 0) ??
    wb.sheets.find((s) => (counts.get(s.name) ?? 0) > 0) ??
    visible[0] ??
    wb.sheets[0];
  return pick.name;
}

function unknownSheet(wb: Workbook, name: string): CsvEngineError {
  return new CsvEngineError(
    'UNKNOWN_SHEET',
    `The workbook has no sheet named "${name}". Its sheets are: ${wb.sheets.map((s) => s.name).join(', ')}.`,
  );
}

/** An empty sheet said in a workbook's words: the whole workbook, or this sheet and the ones to choose. */
function emptySheetError(wb: Workbook, sheet: string, counts: Map<string, number>): EmptyFileError {
  const others = wb.sheets.filter((s) => (counts.get(s.name) ?? 0) > 0).map((s) => s.name);
  if (others.length === 0) {
    return new EmptyFileError(
      'The workbook is empty: its sheets have no cells. Add a header row and data to a sheet in Excel, save it, and upload it again.',
    );
  }
  return new EmptyFileError(
    `The sheet "${sheet}" is empty. Choose another sheet of the workbook: ${others.join(', ')}.`,
  );
}

/** A sink that feeds a sheet's CSV text to an inspector; the first error is kept, not thrown. */
class InspectingSink implements EntrySink {
  readonly inspector: CsvInspector;
  readonly csv: SheetToCsv;
  error: unknown = null;
  constructor(part: string, wb: Workbook, options: InspectOptions) {
    this.inspector = new CsvInspector({ ...options, encoding: 'utf-8', delimiter: ',' });
    this.csv = new SheetToCsv(part, wb, {
      write: (chunk) => {
        if (this.error) return;
        try {
          this.inspector.push(chunk);
        } catch (e) {
          this.error = e;
        }
      },
    });
  }
  data(c: Uint8Array): void {
    this.csv.data(c);
  }
  end(): void {
    this.csv.end();
  }
  result(): InspectResult {
    if (this.error) throw this.error;
    return this.inspector.end();
  }
}

/**
 * Inspects a workbook: counts the rows of every sheet and inspects one (the given one, or the first
 * visible non-empty one) exactly as a CSV upload is inspected. `sheets` given: they are not counted again.
 */
export async function inspectWorkbook(
  open: FileOpener,
  options: {
    sheet?: string;
    limits?: WorkbookLimits;
    inspect?: Omit<InspectOptions, 'encoding' | 'delimiter'>;
    sheets?: SheetSummary[];
  } = {},
): Promise<WorkbookInspection> {
  const wb = await openWorkbook(open, options.limits);
  const chosen = options.sheet !== undefined ? findSheet(wb, options.sheet) : undefined;
  if (options.sheet !== undefined && !chosen) throw unknownSheet(wb, options.sheet);
  const sinks = new Map<ZipEntry, EntrySink>();
  const inspecting = new Map<string, InspectingSink>();
  const counting = new Map<string, SheetToCsv>();
  for (const s of wb.sheets) {
    if (chosen ? s === chosen : true) {
      const sink = new InspectingSink(s.entry.name, wb, options.inspect ?? {});
      inspecting.set(s.name, sink);
      sinks.set(s.entry, sink);
    } else if (!options.sheets) {
      const sink = new SheetToCsv(s.entry.name, wb, null);
      counting.set(s.name, sink);
      sinks.set(s.entry, sink);
    }
  }
  for await (const _ of readEntries(open, sinks));
  const counts = new Map<string, number>();
  for (const [name, s] of inspecting) counts.set(name, s.csv.rows);
  for (const [name, s] of counting) counts.set(name, s.rows);
  for (const s of options.sheets ?? []) if (!counts.has(s.name)) counts.set(s.name, s.rows);
  const sheet = chosen?.name ?? defaultSheet(wb, counts);
  let inspection: InspectResult;
  try {
    inspection = (inspecting.get(sheet) as InspectingSink).result();
  } catch (e) {
    if (e instanceof CsvEngineError && e.code === 'EMPTY_FILE' && !counts.get(sheet)) {
      throw emptySheetError(wb, sheet, counts);
    }
    throw e;
  }
  return {
    sheets: wb.sheets.map((s) => ({
      name: s.name,
      rows: counts.get(s.name) ?? 0,
      ...(s.hidden ? { hidden: true } : {}),
    })),
    sheet,
    inspection,
  };
}

/**
 * One sheet of a workbook as UTF-8 CSV text (comma-separated, row N on line N), streamed: pass it to
 * applyMapping / previewMapping / inspect like an uploaded CSV, with `input: { encoding: 'utf-8',
 * delimiter: ',', headerRow }`.
 */
export async function* workbookCsv(
  open: FileOpener,
  options: { sheet?: string; limits?: WorkbookLimits } = {},
): AsyncGenerator<Buffer> {
  const wb = await openWorkbook(open, options.limits);
  let ref = findSheet(wb, options.sheet);
  if (options.sheet !== undefined && !ref) throw unknownSheet(wb, options.sheet);
  ref ??= wb.sheets.find((s) => !s.hidden) ?? wb.sheets[0];
  let pending: Buffer[] = [];
  const sheet = new SheetToCsv(ref.entry.name, wb, { write: (chunk) => pending.push(chunk) });
  for await (const _ of readEntries(open, new Map([[ref.entry, sheet]]))) {
    const ready = pending;
    pending = [];
    for (const chunk of ready) yield chunk;
  }
  for (const chunk of pending) yield chunk;
}

/** How a stored file is read: CSV as it is, or one sheet of a workbook (as CSV text). */
export interface SourceSpec {
  format?: SourceFormat;
  sheet?: string;
  limits?: WorkbookLimits;
}

/**
 * The bytes the reader sees for a stored file: the file itself for CSV, the chosen sheet as UTF-8 CSV
 * text for a workbook. The api (sync runs, previews) and the worker (jobs) both read through this.
 */
export async function* sourceChunks(
  open: FileOpener,
  spec: SourceSpec = {},
): AsyncGenerator<Buffer | Uint8Array | string> {
  if (spec.format === 'xlsx') {
    yield* workbookCsv(open, { sheet: spec.sheet, limits: spec.limits });
    return;
  }
  const it = chunksOf(await open());
  try {
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await it.return?.();
  }
}
