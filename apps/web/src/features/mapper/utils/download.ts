// Downloads are built in the browser (spec §7): a Blob from text, a temporary object URL, a click.

export function downloadText(text: string, filename: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
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
