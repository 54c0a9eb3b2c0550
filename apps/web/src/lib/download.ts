// Downloads are built in the browser (spec §7): a Blob, a temporary object URL, a click.

/** Saves `blob` as `filename` through a temporary link; the URL is revoked a second later. */
export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadText(text: string, filename: string, type = 'text/csv;charset=utf-8'): void {
  downloadBlob(new Blob([text], { type }), filename);
}

/** A Blob of raw bytes (a result in an encoding other than UTF-8 must not be re-encoded). */
export function downloadBytes(bytes: Uint8Array, filename: string, type = 'text/csv'): void {
  downloadBlob(new Blob([bytes as BlobPart], { type }), filename);
}
