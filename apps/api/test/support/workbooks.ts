import ExcelJS from 'exceljs';
import { createDeflateRaw } from 'node:zlib';
import { unzipSync, zipSync, strToU8 } from 'fflate';

// Workbooks for the api's tests, written with exceljs in the test itself, and raw ZIP surgery for the
// hostile ones (bombs, DTDs, external links).

export async function bufferOf(wb: ExcelJS.Workbook): Promise<Buffer> {
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/**
 * A bank-style workbook: a title block above the header, dates, decimals, a formula, rich text, a merged
 * cell, a boolean; a hidden sheet; a second visible sheet of products.
 */
export async function bankWorkbook(options: { date1904?: boolean } = {}): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  if (options.date1904) wb.properties.date1904 = true;
  const hidden = wb.addWorksheet('Lookup', { state: 'hidden' });
  hidden.addRow(['Code', 'Meaning']);
  hidden.addRow(['X', 'secret']);
  const t = wb.addWorksheet('Transactions');
  t.addRow(['Bank of Example — statement']);
  t.addRow(['Account', 'GB00 1234']);
  t.addRow([]);
  t.addRow(['Date', 'Description', 'Amount', 'Cleared']);
  t.addRow([new Date(Date.UTC(2024, 2, 31)), 'Coffee, large', 0.1, true]);
  t.addRow([
    new Date(Date.UTC(2024, 3, 1)),
    { richText: [{ text: 'Rent ' }, { font: { bold: true }, text: 'April' }] },
    -1200.5,
    false,
  ]);
  t.addRow([new Date(Date.UTC(2024, 3, 2)), 'Total so far', { formula: 'C5+C6', result: -1200.4 }, null]);
  t.addRow([new Date(Date.UTC(2024, 3, 3)), 'Merged note', 0.30000000000000004, true]);
  t.mergeCells('B8:B9');
  t.getCell('A9').value = new Date(Date.UTC(2024, 3, 4));
  t.getCell('C9').value = 7;
  t.getCell('D9').value = false;
  for (let r = 5; r <= 9; r++) t.getCell(`A${r}`).numFmt = 'dd/mm/yyyy';
  // Formatting far to the right and below the data: trailing empty columns and rows are dropped.
  t.getCell('H20').numFmt = '0.00';
  const p = wb.addWorksheet('Products');
  p.addRow(['SKU', 'Name', 'Price']);
  p.addRow(['A-1', 'Pen', 1.25]);
  p.addRow(['B-2', 'Paper "A4"', 3]);
  return bufferOf(wb);
}

/** `rows` data rows of (Name, Amount, Date) in one sheet, and the same data as the CSV text it reads as. */
export async function bigWorkbook(rows: number): Promise<{ xlsx: Buffer; csv: string }> {
  const wb = new ExcelJS.Workbook();
  const s = wb.addWorksheet('Data');
  s.addRow(['Name', 'Amount', 'Date']);
  const lines = ['Name,Amount,Date'];
  for (let i = 1; i <= rows; i++) {
    const amount = (i % 1000) / 100;
    const day = new Date(Date.UTC(2024, 0, 1 + (i % 300)));
    s.addRow([`Person ${i}`, amount, day]);
    lines.push(`Person ${i},${amount},${day.toISOString().slice(0, 10)}`);
  }
  s.getColumn(3).numFmt = 'yyyy-mm-dd';
  return { xlsx: await bufferOf(wb), csv: lines.join('\n') + '\n' };
}

/** The workbook with some parts replaced (or added); `null` removes a part. */
export function withParts(xlsx: Buffer, parts: Record<string, string | Uint8Array | null>): Buffer {
  const files = unzipSync(new Uint8Array(xlsx));
  for (const [name, content] of Object.entries(parts)) {
    if (content === null) delete files[name];
    else files[name] = typeof content === 'string' ? strToU8(content) : new Uint8Array(content);
  }
  return Buffer.from(zipSync(files));
}

export function textOf(xlsx: Buffer, part: string): string {
  return Buffer.from(unzipSync(new Uint8Array(xlsx))[part]).toString('utf8');
}

export interface RawEntry {
  name: string;
  /** The bytes as stored (deflated when method is 8). */
  data: Buffer;
  method: 0 | 8;
  /** The unpacked size the headers declare (a lying bomb declares less than it holds). */
  size: number;
}

/** A ZIP written byte by byte, so its headers can say whatever a hostile file says (CRCs left 0). */
export function rawZip(entries: RawEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    parts.push(local, name, e.data);
    const cen = Buffer.alloc(46);
    cen.writeUInt32LE(0x02014b50, 0);
    cen.writeUInt16LE(20, 4);
    cen.writeUInt16LE(20, 6);
    cen.writeUInt16LE(e.method, 10);
    cen.writeUInt32LE(e.data.length, 20);
    cen.writeUInt32LE(e.size, 24);
    cen.writeUInt16LE(name.length, 28);
    cen.writeUInt32LE(offset, 42);
    central.push(cen, name);
    offset += 30 + name.length + e.data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cd, end]);
}

/** The parts of a real workbook as stored entries (so one of them can be swapped for a hostile one). */
export function entriesOf(xlsx: Buffer): RawEntry[] {
  return Object.entries(unzipSync(new Uint8Array(xlsx))).map(([name, data]) => ({
    name,
    data: Buffer.from(data),
    method: 0 as const,
    size: data.length,
  }));
}

/** prefix + `bytes` spaces + suffix, deflated as a stream (never whole in memory). */
export async function deflatedFiller(bytes: number, prefix = '', suffix = ''): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((r) => deflate.on('end', r));
  deflate.write(prefix);
  const block = Buffer.alloc(1024 * 1024, ' ');
  for (let n = 0; n < bytes; n += block.length) {
    if (!deflate.write(block.subarray(0, Math.min(block.length, bytes - n)))) {
      await new Promise((r) => deflate.once('drain', r));
    }
  }
  deflate.end(suffix);
  await done;
  return Buffer.concat(out);
}
