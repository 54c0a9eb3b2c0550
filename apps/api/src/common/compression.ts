import compression from 'compression';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { existsSync, readdirSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { constants as zlib } from 'node:zlib';

// Response compression. Static files of the web build are compressed once at build time
// (scripts/precompress-web.js writes .br and .gz next to them) and sent as they are; JSON answers of 1 KB or
// more are compressed on the fly. CSV (results, downloads) is never compressed: downloads stream large
// files whose Content-Length clients and proxies rely on, and compressing them costs the api more CPU than
// it saves on the wire for a one-off fetch. Already-compressed types (images, archives) are never touched.

/** Encodings we can send, best first. */
export type Encoding = 'br' | 'gzip';

/** Smallest JSON body worth compressing (below this the headers and CPU outweigh the saving). */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * The best encoding the client accepts from `available` (Brotli before gzip whatever the header's order,
 * since Brotli is smaller for the same content), or null for identity. Honours q-values and `*`.
 */
export function negotiateEncoding(
  header: string | undefined,
  available: readonly Encoding[] = ['br', 'gzip'],
): Encoding | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const star = q.get('*');
  for (const enc of available) {
    const weight = q.get(enc) ?? (enc === 'gzip' ? q.get('x-gzip') : undefined) ?? star ?? 0;
    if (weight > 0) return enc;
  }
  return null;
}

function isCsv(res: Response): boolean {
  const type = String(res.getHeader('Content-Type') ?? '').toLowerCase();
  return (
    type.startsWith('text/csv') || /attachment/i.test(String(res.getHeader('Content-Disposition') ?? ''))
  );
}

/**
 * On-the-fly Brotli/gzip for the api's answers: JSON and other compressible text of 1 KB or more. CSV and
 * downloads pass through untouched; so does anything already encoded (the precompressed web assets).
 */
export function dynamicCompression(): RequestHandler {
  return compression({
    threshold: COMPRESS_THRESHOLD_BYTES,
    // Quality 4 (compression's default too): most of Brotli's gain at a fraction of level 11's CPU.
    brotli: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
    filter: (req, res) => !isCsv(res as Response) && compression.filter(req, res),
  });
}

const CONTENT_ENCODING: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/**
 * The web build's precompressed copies, indexed once at start-up (the build does not change while the
 * api runs), so a request costs a map lookup rather than file-system probes.
 */
export class PrecompressedAssets {
  /** Absolute path of an original file → the encodings that have a copy next to it. */
  private readonly variants = new Map<string, Encoding[]>();

  constructor(private readonly dist: string) {
    if (existsSync(dist)) this.index(dist);
  }

  private index(dir: string): void {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        this.index(full);
        continue;
      }
      for (const enc of ['br', 'gzip'] as const) {
        const suffix = CONTENT_ENCODING[enc];
        if (!entry.name.endsWith(suffix)) continue;
        const original = full.slice(0, -suffix.length);
        if (!existsSync(original)) continue;
        const list = this.variants.get(original) ?? [];
        list.push(enc);
        list.sort((a, b) => (a === 'br' ? -1 : b === 'br' ? 1 : 0));
        this.variants.set(original, list);
      }
    }
  }

  /** How many files have a compressed copy (for the start-up log and tests). */
  get size(): number {
    return this.variants.size;
  }

  /**
   * Sends `file` (an absolute path inside dist), as its .br/.gz copy when the client accepts one. Every
   * answer for a file that has copies says `Vary: Accept-Encoding`, so caches keep the variants apart.
   */
  send(req: Request, res: Response, file: string, next: NextFunction): void {
    const available = this.variants.get(file);
    if (!available) {
      res.sendFile(file, (err) => err && next(err));
      return;
    }
    res.vary('Accept-Encoding');
    const enc = negotiateEncoding(req.headers['accept-encoding'], available);
    if (!enc) {
      res.sendFile(file, (err) => err && next(err));
      return;
    }
    // The type is the original file's; the copy's own extension (.br/.gz) would say octet-stream.
    res.type(extname(file));
    res.setHeader('Content-Encoding', enc);
    // A byte range of the compressed copy is not a range of the file the URL names.
    res.sendFile(`${file}${CONTENT_ENCODING[enc]}`, { acceptRanges: false }, (err) => err && next(err));
  }

  /**
   * Middleware for the build's static files: answers GET/HEAD for a path that names a file with a
   * compressed copy; everything else goes on to express.static.
   */
  middleware(): RequestHandler {
    return (req, res, next) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      let path: string;
      try {
        path = decodeURIComponent(req.path);
      } catch {
        return next();
      }
      const file = join(this.dist, path);
      // join() normalises '..' away; a path that leaves dist is not ours to answer.
      const rel = relative(this.dist, file);
      if (rel.startsWith('..') || rel.split(sep).includes('..')) return next();
      if (!this.variants.has(file)) return next();
      this.send(req, res, file, next);
    };
  }
}
