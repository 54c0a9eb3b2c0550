// The mapper's downloads (spec §7), saved through lib/download.
import { downloadBytes, downloadText } from '../../../lib/download';

export function base64Bytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The sync result's file: its exact bytes when the api sends them (base64), else its UTF-8 text. */
export function downloadResult(r: { csvData: string; filename: string; csvBase64?: string }): void {
  if (r.csvBase64) downloadBytes(base64Bytes(r.csvBase64), r.filename);
  else downloadText(r.csvData, r.filename);
}

function csvCell(v: string | number): string {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The warnings of a run as a CSV a bookkeeper can open next to the output. */
export function warningsCsv(
  warnings: { row: number; column: string; value: string; reason: string }[],
): string {
  const lines = [
    'Row,Column,Value,Reason',
    ...warnings.map((w) => [w.row, w.column, w.value, w.reason].map(csvCell).join(',')),
  ];
  return lines.join('\r\n') + '\r\n';
}

/** '0.99 MB' with two decimals, as the File Too Large dialog quotes sizes (spec §8). */
export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}
