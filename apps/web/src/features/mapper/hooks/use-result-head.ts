import { useEffect, useState } from 'react';

const HEAD_BYTES = 64 * 1024;

/**
 * The beginning of a background job's result, for the "first rows" panel: streams the download and stops
 * after 64 KB, decoded in the encoding the job wrote. Null until read; '' when it could not be read.
 */
export function useResultHead(url: string | undefined, encoding: string | undefined): string | null {
  const [head, setHead] = useState<string | null>(null);
  useEffect(() => {
    if (!url) return;
    const abort = new AbortController();
    (async () => {
      const res = await fetch(url, { credentials: 'include', signal: abort.signal });
      if (!res.ok || !res.body) throw new Error(`result answered ${res.status}`);
      const reader = res.body.getReader();
      const chunks: Uint8Array[] = [];
      let size = 0;
      while (size < HEAD_BYTES) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        size += value.length;
      }
      await reader.cancel();
      const bytes = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) {
        bytes.set(c, at);
        at += c.length;
      }
      setHead(new TextDecoder(encoding ?? 'utf-8').decode(bytes));
    })().catch(() => {
      if (!abort.signal.aborted) setHead('');
    });
    return () => abort.abort();
  }, [url, encoding]);
  return head;
}
