import ExcelJS from 'exceljs';
import { inspectWorkbook, workbookCsv } from '../libs/csv-engine/src';
async function main() {
  const wb = new ExcelJS.Workbook();
  const a = wb.addWorksheet('Summary');
  a.addRow(['Bank export']); a.addRow(['Account', '1234']); a.addRow([]);
  a.addRow(['Date', 'Amount', 'Note', 'Flag']);
  a.addRow([new Date(Date.UTC(2024, 2, 31)), 0.1, 'a, "b"', true]);
  a.addRow([new Date(Date.UTC(2024, 3, 1)), 0.30000000000000004, { richText: [{ text: 'rich ' }, { font: { bold: true }, text: 'text' }] }, false]);
  a.addRow([new Date(Date.UTC(2024, 3, 2)), { formula: 'B5+B6', result: 0.4 }, 'merged', null]);
  a.mergeCells('C7:D7');
  const h = wb.addWorksheet('Hidden', { state: 'hidden' }); h.addRow(['x']);
  const b = wb.addWorksheet('Second'); b.addRow(['Name', 'Qty']); b.addRow(['Pen', 3]);
  const buf = Buffer.from(await wb.xlsx.writeBuffer());
  const open = () => [buf];
  const r = await inspectWorkbook(open);
  console.log(JSON.stringify(r, null, 1));
  const parts: Buffer[] = [];
  for await (const c of workbookCsv(open, { sheet: 'Summary' })) parts.push(c);
  console.log(Buffer.concat(parts).toString());
}
main().catch((e) => { console.error(e); process.exit(1); });
