import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import { CsvInspector, type InspectResult } from '@csv-mapper/csv-engine';
import type { BlobWriter, EphemeralStore } from '@csv-mapper/queue';

// A multer StorageEngine that sends the file's bytes through the engine's inspector straight into the
// ephemeral Redis store, chunk by chunk with backpressure: the file is never whole in memory nor on disk.
// Bytes past the plan's size limit are counted and dropped, so the error can quote the real size.

/** Bytes are in Redis but not yet committed: the service commits once it knows the upload's type. */
export interface StoredUpload {
  writer: BlobWriter;
  inspection: InspectResult;
  size: number;
}

export type StoreOutcome =
  | { kind: 'stored'; filename: string; mimetype: string; result: StoredUpload }
  | { kind: 'tooLarge'; filename: string; size: number }
  | { kind: 'notCsv'; filename: string; mimetype: string }
  | { kind: 'invalid'; filename: string; error: unknown };

export interface CsvStorageOptions {
  store: EphemeralStore;
  ownerId: string;
  /** Bytes; Infinity for unlimited. */
  maxBytes: number;
  /** Where the outcome lands (multer's own file info is too narrow to carry it). */
  onOutcome(outcome: StoreOutcome): void;
}

export function isCsvFile(filename: string, mimetype: string): boolean {
  return mimetype.toLowerCase().split(';')[0].trim() === 'text/csv' || /\.csv$/i.test(filename.trim());
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
        this.options.onOutcome(outcome);
        callback(null, { size: outcome.kind === 'tooLarge' ? outcome.size : 0 });
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
    if (!isCsvFile(filename, file.mimetype)) {
      await drain(file.stream);
      return { kind: 'notCsv', filename, mimetype: file.mimetype };
    }
    const writer = store.createWriter('upload', ownerId, filename);
    const inspector = new CsvInspector({ sampleRows: 5 });
    let bytes = 0;
    let failed: unknown = null;
    let tooLarge = false;
    try {
      for await (const chunk of file.stream as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (tooLarge || failed) continue;
        if (bytes > maxBytes) {
          tooLarge = true;
          continue;
        }
        try {
          inspector.push(chunk);
        } catch (err) {
          failed = err;
          continue;
        }
        await writer.write(chunk);
      }
      if (tooLarge) {
        await writer.abort();
        return { kind: 'tooLarge', filename, size: bytes };
      }
      let inspection: InspectResult;
      try {
        if (failed) throw failed;
        inspection = inspector.end();
      } catch (err) {
        await writer.abort();
        return { kind: 'invalid', filename, error: err };
      }
      return {
        kind: 'stored',
        filename,
        mimetype: file.mimetype,
        result: { writer, inspection, size: bytes },
      };
    } catch (err) {
      await writer.abort().catch(() => undefined);
      throw err;
    }
  }
}

async function drain(stream: NodeJS.ReadableStream): Promise<void> {
  for await (const chunk of stream as AsyncIterable<Buffer>) void chunk;
}
