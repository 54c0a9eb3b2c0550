import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import type { Readable } from 'node:stream';
import { CsvInspector, detectFormat, oleError, type InspectResult } from '@csv-mapper/csv-engine';
import type { BlobWriter, BlobStore } from '@csv-mapper/queue';

// A multer StorageEngine that sends the file's bytes through the engine's inspector straight into the
// ephemeral Redis store, chunk by chunk with backpressure: the file is never whole in memory nor on disk.
// It stops reading the moment the counted bytes pass the size limit (or the file name is unusable): the
// outcome is reported at once so the service can answer without waiting for the rest of the body.

/**
 * Bytes are in Redis but not yet committed: the service commits once it knows the upload's type. A
 * workbook is inspected after it is stored (its parts are read in several passes), so it has no
 * inspection yet.
 */
export type StoredUpload =
  | { format: 'csv'; writer: BlobWriter; inspection: InspectResult; size: number }
  | { format: 'xlsx'; writer: BlobWriter; inspection: null; size: number };

export type StoreOutcome =
  | { kind: 'stored'; filename: string; mimetype: string; result: StoredUpload }
  | { kind: 'tooLarge'; filename: string; size: number }
  | { kind: 'badName'; filename: string }
  | { kind: 'notCsv'; filename: string; mimetype: string }
  | { kind: 'invalid'; filename: string; error: unknown };

export interface CsvStorageOptions {
  store: BlobStore;
  ownerId: string;
  /** Bytes; Infinity for unlimited. */
  maxBytes: number;
  /** Where the outcome lands (multer's own file info is too narrow to carry it). */
  /** `field`: the multipart part's name (`file`, or a route's extra file part). */
  onOutcome(outcome: StoreOutcome, field: string): void;
}

/** Outcomes that end the upload before its last byte: the rest of the body is never read. */
export function stopsEarly(outcome: StoreOutcome): boolean {
  return outcome.kind === 'tooLarge' || outcome.kind === 'badName';
}

/** Drops the bytes of an upload that was stored but will not be committed (an early failure). */
export async function discardOutcome(outcome: StoreOutcome | null): Promise<void> {
  if (outcome?.kind === 'stored') await outcome.result.writer.abort().catch(() => undefined);
}

/** Passed to multer so it stops feeding the parser; the service already holds the real outcome. */
export class UploadStoppedError extends Error {
  constructor(readonly outcome: StoreOutcome) {
    super(`upload stopped early: ${outcome.kind}`);
  }
}

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Names and types worth reading: CSV or Excel. What the file is, the content decides (detectFormat). */
export function isCsvFile(filename: string, mimetype: string): boolean {
  const type = mimetype.toLowerCase().split(';')[0].trim();
  return (
    type === 'text/csv' ||
    type === XLSX_MIME ||
    type === 'application/vnd.ms-excel' ||
    /\.(csv|xlsx|xls)$/i.test(filename.trim())
  );
}

export class CsvStorageEngine implements StorageEngine {
  constructor(private readonly options: CsvStorageOptions) {}

  _handleFile(
    _req: Request,
    file: Express.Multer.File,
    callback: (error?: unknown, info?: Partial<Express.Multer.File>) => void,
  ): void {
    this.store(file).then(
      (outcome) => {
        this.options.onOutcome(outcome, file.fieldname);
        if (stopsEarly(outcome)) callback(new UploadStoppedError(outcome));
        else callback(null, { size: 0 });
      },
      (err: unknown) => callback(err),
    );
  }

  _removeFile(_req: Request, _file: Express.Multer.File, callback: (error: Error | null) => void): void {
    callback(null);
  }

  private async store(file: Express.Multer.File): Promise<StoreOutcome> {
    const { store, ownerId, maxBytes } = this.options;
    const filename = file.originalname || 'upload.csv';
    // The name reaches Postgres later (usage history), which cannot store NUL.
    if (filename.includes('\u0000')) return { kind: 'badName', filename };
    if (!isCsvFile(filename, file.mimetype)) {
      const size = await drain(file.stream, maxBytes);
      if (size > maxBytes) return { kind: 'tooLarge', filename, size };
      return { kind: 'notCsv', filename, mimetype: file.mimetype };
    }
    const writer = store.createWriter('upload', ownerId, filename);
    const inspector = new CsvInspector({ sampleRows: 5 });
    let bytes = 0;
    let failed: unknown = null;
    let tooLarge = false;
    // The first bytes decide what the file is, whatever its name says.
    let head: Buffer | null = Buffer.alloc(0);
    let format: 'csv' | 'xlsx' = 'csv';
    const take = async (chunk: Buffer): Promise<void> => {
      if (format === 'csv') inspector.push(chunk);
      await writer.write(chunk);
    };
    try {
      for await (const chunk of keepOpen(file.stream)) {
        bytes += chunk.length;
        if (bytes > maxBytes) {
          // Stop here: the file stream stays paused, so the parser (and the socket) stop being read.
          tooLarge = true;
          break;
        }
        if (failed) continue;
        try {
          if (head) {
            head = Buffer.concat([head, chunk]);
            if (head.length < 8) continue;
            const kind = detectFormat(head);
            if (kind === 'ole') throw oleError(head);
            if (kind === 'zip') format = 'xlsx';
            const first = head;
            head = null;
            await take(first);
          } else {
            await take(chunk);
          }
        } catch (err) {
          failed = err;
          continue;
        }
      }
      if (!tooLarge && !failed && head && head.length > 0) {
        try {
          await take(head);
        } catch (err) {
          failed = err;
        }
      }
      if (tooLarge) {
        await writer.abort();
        return { kind: 'tooLarge', filename, size: bytes };
      }
      let inspection: InspectResult | null = null;
      try {
        if (failed) throw failed;
        if (format === 'csv') inspection = inspector.end();
      } catch (err) {
        await writer.abort();
        return { kind: 'invalid', filename, error: err };
      }
      return {
        kind: 'stored',
        filename,
        mimetype: file.mimetype,
        result: inspection
          ? { format: 'csv', writer, inspection, size: bytes }
          : { format: 'xlsx', writer, inspection: null, size: bytes },
      };
    } catch (err) {
      await writer.abort().catch(() => undefined);
      throw err;
    }
  }
}

/** Reads and drops a file's bytes, stopping once they pass `max`; returns how many were read. */
async function drain(stream: NodeJS.ReadableStream, max: number): Promise<number> {
  let bytes = 0;
  for await (const chunk of keepOpen(stream)) {
    bytes += chunk.length;
    if (bytes > max) break;
  }
  return bytes;
}

/**
 * Iterates a file's chunks without destroying the stream when the loop stops early: a destroyed file
 * stream makes multer fail the upload with an AbortError (a 500) before the real outcome is reported.
 */
function keepOpen(stream: NodeJS.ReadableStream): AsyncIterable<Buffer> {
  return (stream as Readable).iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>;
}
