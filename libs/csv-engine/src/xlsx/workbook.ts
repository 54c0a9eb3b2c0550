// Reads an .xlsx workbook's structure (sheets, shared strings, date styles) and turns a sheet into CSV
// text, row by row, so the rows flow into the same reader, inspector and mapper as an uploaded CSV.
// Row numbers are kept: row N of the sheet is line N of the text (the header row reads the same in both).
import { InvalidWorkbookError, UnsupportedWorkbookError } from '../errors';
import { dateFormatOf, type DateFormat } from './date-formats';
import { SharedStrings } from './shared-strings';
import { sharedStringsSink } from './shared-strings-scanner';
import { parseXml, textSink } from './xml';
import { decodeEscapes } from './xml-text';
import {
  readDirectory,
  readEntries,
  type EntrySink,
  type FileOpener,
  type WorkbookLimits,
  type ZipEntry,
} from './zip';

const MAX_SMALL_PART = 32 * 1024 * 1024;
const OFFICE_DOCUMENT = /\/officeDocument$/;
const REL_TYPE = {
  sheet: /\/worksheet$/,
  styles: /\/styles$/,
  sharedStrings: /\/sharedStrings$/,
  externalLink: /\/externalLink$/,
};

export interface SheetRef {
  name: string;
  hidden: boolean;
  entry: ZipEntry;
}

/** What every read of a workbook needs before its sheet: the parts, shared strings and date styles. */
export interface Workbook {
  entries: ZipEntry[];
  sheets: SheetRef[];
  date1904: boolean;
  /** Per cell style index: the date format its number format shows, or null. */
  styleDates: (DateFormat | null)[];
  sharedStrings: SharedStrings;
}

interface Rel {
  id: string;
  type: string;
  target: string;
  external: boolean;
}

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i + 1);
}

function resolve(base: string, target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : dirOf(base) + target).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '..') out.pop();
    else if (p !== '.' && p !== '') out.push(p);
  }
  return out.join('/');
}

function relsPathOf(part: string): string {
  return `${dirOf(part)}_rels/${part.slice(dirOf(part).length)}.rels`;
}

function parseRels(part: string, text: string): Rel[] {
  const rels: Rel[] = [];
  parseXml(part, text, {
    open(name, a) {
      if (name === 'Relationship') {
        rels.push({
          id: a.Id ?? '',
          type: a.Type ?? '',
          target: a.Target ?? '',
          external: (a.TargetMode ?? '').toLowerCase() === 'external',
        });
      }
    },
    close() {},
  });
  return rels;
}

function externalLinksError(): InvalidWorkbookError {
  return new InvalidWorkbookError(
    'The workbook links to other files (external links), which are not read. In Excel choose Data > Edit Links > Break Link, save, and upload the file again (or save the sheet as CSV).',
  );
}

/**
 * Finds parts by name: exactly, or else ignoring letter case, as OPC compares part names (Excel and
 * LibreOffice open a workbook whose relationship says `xl/workbook.xml` for an entry `xl/Workbook.xml`).
 */
function partFinder(entries: ZipEntry[]): (path: string | null) => ZipEntry | undefined {
  const exact = new Map<string, ZipEntry>();
  const folded = new Map<string, ZipEntry>();
  for (const e of entries) {
    exact.set(e.name, e);
    if (!folded.has(e.name.toLowerCase())) folded.set(e.name.toLowerCase(), e);
  }
  return (path) => (path === null ? undefined : (exact.get(path) ?? folded.get(path.toLowerCase())));
}

/** Collects the text of small parts in one pass, by entry name. */
async function readTexts(open: FileOpener, parts: ZipEntry[]): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  const sinks = new Map<ZipEntry, EntrySink>();
  for (const e of parts) {
    sinks.set(
      e,
      textSink(MAX_SMALL_PART, e.name, (t) => texts.set(e.name, t)),
    );
  }
  for await (const _ of readEntries(open, sinks));
  return texts;
}

/** Passes 1–3: directory, relationships, then workbook, styles and shared strings. */
export async function openWorkbook(open: FileOpener, limits: WorkbookLimits = {}): Promise<Workbook> {
  const entries = await readDirectory(open, limits);
  const find = partFinder(entries);
  const rootRels = find('_rels/.rels');
  if (!rootRels) throw notWorkbookError();
  if (entries.some((e) => /^xl\/externalLinks\//i.test(e.name))) throw externalLinksError();
  const relsTexts = await readTexts(
    open,
    entries.filter((e) => e.name.toLowerCase().endsWith('.rels')),
  );
  const root = parseRels(rootRels.name, relsTexts.get(rootRels.name) ?? '');
  const doc = root.find((r) => OFFICE_DOCUMENT.test(r.type) && !r.external);
  if (!doc) throw notWorkbookError();
  const workbookEntry = find(resolve('', doc.target));
  if (!workbookEntry) throw notWorkbookError();
  const workbookPath = workbookEntry.name;
  const wbRelsEntry = find(relsPathOf(workbookPath));
  const wbRels = wbRelsEntry ? parseRels(wbRelsEntry.name, relsTexts.get(wbRelsEntry.name) ?? '') : [];
  if (wbRels.some((r) => REL_TYPE.externalLink.test(r.type))) throw externalLinksError();
  const relById = new Map(wbRels.map((r) => [r.id, r]));
  const stylesRel = wbRels.find((r) => REL_TYPE.styles.test(r.type));
  const sstRel = wbRels.find((r) => REL_TYPE.sharedStrings.test(r.type));
  const stylesPath = find(stylesRel ? resolve(workbookPath, stylesRel.target) : null)?.name ?? null;
  const sstPath = find(sstRel ? resolve(workbookPath, sstRel.target) : null)?.name ?? null;

  // Pass 3: the workbook and styles as text, the shared strings parsed as they stream.
  const texts = new Map<string, string>();
  const sinks = new Map<ZipEntry, EntrySink>();
  const sharedStrings = new SharedStrings();
  for (const e of entries) {
    if (e.name === workbookPath || e.name === stylesPath) {
      sinks.set(
        e,
        textSink(MAX_SMALL_PART, e.name, (t) => texts.set(e.name, t)),
      );
    } else if (e.name === sstPath) {
      sinks.set(e, sharedStringsSink(e.name, sharedStrings));
    }
  }
  for await (const _ of readEntries(open, sinks));
  sharedStrings.finish();

  let date1904 = false;
  let isWorkbook = false;
  let depth = 0;
  const sheets: SheetRef[] = [];
  parseXml(workbookPath, texts.get(workbookPath) ?? '', {
    open(name, a) {
      depth++;
      if (name === 'workbook') isWorkbook = true;
      // Only the workbook's own <workbookPr>: Excel also writes an <x15:workbookPr> in <extLst>, later.
      else if (name === 'workbookPr' && depth === 2) date1904 = a.date1904 === '1' || a.date1904 === 'true';
      else if (name === 'externalReference') throw externalLinksError();
      else if (name === 'sheet') {
        const rid = Object.entries(a).find(([k]) => k === 'r:id' || k.endsWith(':id'))?.[1] ?? '';
        const rel = relById.get(rid);
        if (!rel || rel.external || !REL_TYPE.sheet.test(rel.type)) return; // chart sheets, dialogs
        const path = resolve(workbookPath, rel.target);
        const entry = find(path);
        const name = a.name === undefined ? path : decodeEscapes(a.name);
        if (!entry)
          throw new InvalidWorkbookError(`The workbook's sheet "${name}" is missing from the file.`);
        sheets.push({ name, hidden: (a.state ?? 'visible') !== 'visible', entry });
      }
    },
    close() {
      depth--;
    },
  });
  if (!isWorkbook) throw notWorkbookError();
  if (sheets.length === 0) {
    throw new InvalidWorkbookError('The workbook has no worksheets. Add a sheet with a header row and data.');
  }
  const styleDates =
    stylesPath && texts.has(stylesPath) ? parseStyles(stylesPath, texts.get(stylesPath) as string) : [];
  return { entries, sheets, date1904, styleDates, sharedStrings };
}

export function notWorkbookError(): UnsupportedWorkbookError {
  return new UnsupportedWorkbookError(
    'This file is a ZIP archive but not an Excel workbook (.xlsx). Upload a .xlsx workbook or a CSV file.',
  );
}

function parseStyles(part: string, text: string): (DateFormat | null)[] {
  const formats = new Map<number, string>();
  const out: (DateFormat | null)[] = [];
  // One format object per number format, so cells of every style that shows it share its remembered dates.
  const byId = new Map<number, DateFormat | null>();
  let inXfs = false;
  parseXml(part, text, {
    open(name, a) {
      if (name === 'numFmt') formats.set(Number(a.numFmtId), a.formatCode ?? '');
      else if (name === 'cellXfs') inXfs = true;
      else if (name === 'xf' && inXfs) {
        const id = Number(a.numFmtId ?? 0);
        if (!byId.has(id)) byId.set(id, dateFormatOf(id, formats.get(id)));
        out.push(byId.get(id) ?? null);
      }
    },
    close(name) {
      if (name === 'cellXfs') inXfs = false;
    },
  });
  return out;
}

/** Finds a sheet by name (exact, then ignoring case), or the default: the first visible non-empty one. */
export function findSheet(wb: Workbook, name: string | undefined): SheetRef | undefined {
  if (name === undefined) return undefined;
  return (
    wb.sheets.find((s) => s.name === name) ??
    wb.sheets.find((s) => s.name.toLowerCase() === name.toLowerCase())
  );
}

/** The entries a workbook read streams, so callers can pair them with SheetToCsv sinks. */
export { readEntries };
export { SheetToCsv } from './sheet-scanner';
