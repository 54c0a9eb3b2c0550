import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer, { MulterError } from 'multer';
import type { Readable } from 'node:stream';
import { isCsvEngineError } from '@csv-mapper/csv-engine';
import { formatMegabytes, formatPlanFileSize, limitsOf, UNLIMITED } from '@csv-mapper/domain';
import { BlobNotFoundError, EphemeralStore, type BlobMeta } from '@csv-mapper/queue';
import type { AuthUser } from '../auth/auth-user';
import { AppError } from '../common/app-error';
import { CsvStorageEngine, type StoreOutcome } from './csv-storage.engine';
import { isUploadType, type UploadInfo, type UploadRecord, type UploadType } from './upload-record';

// Owns uploaded files: receiving them (multipart → inspector → Redis), describing, reading and deleting
// them. Every read is owner-checked by the store; someone else's id looks exactly like a missing one.

/** Explicit multipart limits: one file, a handful of small fields. */
const MULTIPART_LIMITS = {
  files: 1,
  fields: 10,
  parts: 12,
  fieldSize: 1024,
  fieldNameSize: 100,
  headerPairs: 50,
};

export interface StoredUploadView {
  meta: BlobMeta;
  info: UploadInfo;
}

@Injectable()
export class UploadsService {
  constructor(private readonly store: EphemeralStore) {}

  async receive(req: Request, res: Response, user: AuthUser, fixedType?: UploadType): Promise<UploadRecord> {
    const limits = limitsOf(user.plan);
    const maxBytes = limits.maxFileSize === UNLIMITED ? Infinity : limits.maxFileSize;
    let outcome: StoreOutcome | null = null;
    const engine = new CsvStorageEngine({
      store: this.store,
      ownerId: user.id,
      maxBytes,
      onOutcome: (o) => {
        outcome = o;
      },
    });
    const handle = multer({ storage: engine, limits: MULTIPART_LIMITS }).single('file');
    try {
      await new Promise<void>((resolve, reject) =>
        handle(req, res, (err: unknown) => (err ? reject(err) : resolve())),
      );
    } catch (err) {
      await discard(outcome);
      throw multipartError(err);
    }
    const result = outcome as StoreOutcome | null;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const type = fixedType ?? body.type;
    if (!result) {
      throw new AppError(
        400,
        'NO_FILE',
        'No file was uploaded. Choose a CSV file and send it in the "file" field.',
      );
    }
    if (!isUploadType(type)) {
      await discard(result);
      throw new AppError(
        400,
        'INVALID_UPLOAD_TYPE',
        'Say which file this is: send type "template" or type "data" with the file.',
      );
    }
    switch (result.kind) {
      case 'notCsv':
        throw new AppError(
          415,
          'UNSUPPORTED_FILE_TYPE',
          `"${result.filename}" is not a CSV file. Only .csv files can be uploaded: export the file as CSV first.`,
        );
      case 'tooLarge':
        throw new AppError(
          413,
          'FILE_TOO_LARGE',
          `File size (${formatMegabytes(result.size)}) exceeds your plan limit of ${formatPlanFileSize(maxBytes).replace(/MB$/, ' MB')}`,
          { size: result.size, maxFileSize: maxBytes },
        );
      case 'invalid':
        if (isCsvEngineError(result.error)) {
          throw new AppError(result.error.status, result.error.code, result.error.message);
        }
        throw result.error;
      case 'stored':
        break;
    }
    const { writer, inspection, size } = result.result;
    if (type === 'data' && inspection.rowCount === 0) {
      await writer.abort();
      throw new AppError(
        400,
        'NO_DATA_ROWS',
        `"${result.filename}" has a header row but no data rows. Upload the data file with its rows.`,
      );
    }
    const info: UploadInfo = {
      type,
      headers: inspection.headers,
      rowCount: inspection.rowCount,
      delimiter: inspection.delimiter,
      encoding: inspection.encoding,
      headerRow: inspection.headerRow,
    };
    const meta = await writer.commit({ ...info });
    const record: UploadRecord = {
      id: meta.id,
      filename: meta.filename,
      headers: info.headers,
      data: inspection.sampleRows,
      type,
      uploadedAt: meta.createdAt,
      size,
      rowCount: info.rowCount,
      delimiter: info.delimiter,
      encoding: info.encoding,
      headerRow: info.headerRow,
    };
    if (type === 'data' && limits.maxRowsPerFile !== UNLIMITED && info.rowCount > limits.maxRowsPerFile) {
      record.exceedsRowLimit = true;
      record.actualRows = info.rowCount;
      record.maxRows = limits.maxRowsPerFile;
    }
    return record;
  }

  /** The upload's meta and inspection, or 404 when it is missing, expired or someone else's. */
  async get(id: string, ownerId: string, label = 'File'): Promise<StoredUploadView> {
    try {
      const meta = await this.store.getMeta(id, ownerId);
      return { meta, info: meta.info as unknown as UploadInfo };
    } catch (err) {
      throw notFound(err, label);
    }
  }

  async open(id: string, ownerId: string, label = 'File'): Promise<{ meta: BlobMeta; stream: Readable }> {
    try {
      return await this.store.openRead(id, ownerId);
    } catch (err) {
      throw notFound(err, label);
    }
  }

  async remove(id: string, ownerId: string): Promise<void> {
    try {
      await this.store.delete(id, ownerId);
    } catch (err) {
      throw notFound(err, 'File');
    }
  }
}

function notFound(err: unknown, label: string): unknown {
  if (err instanceof BlobNotFoundError) {
    return new AppError(404, 'FILE_NOT_FOUND', `${label} not found or expired. Upload it again.`);
  }
  return err;
}

async function discard(outcome: StoreOutcome | null): Promise<void> {
  if (outcome?.kind === 'stored') await outcome.result.writer.abort().catch(() => undefined);
}

function multipartError(err: unknown): unknown {
  if (err instanceof MulterError) {
    const messages: Record<string, string> = {
      LIMIT_FILE_COUNT: 'Upload one file at a time.',
      LIMIT_UNEXPECTED_FILE: 'Send the CSV file in a form field named "file", one file per request.',
      LIMIT_PART_COUNT: 'The upload form has too many parts. Send the file and its type only.',
      LIMIT_FIELD_COUNT: 'The upload form has too many fields. Send the file and its type only.',
      LIMIT_FIELD_KEY: 'A form field name is too long. Send the file and its type only.',
      LIMIT_FIELD_VALUE: 'A form field value is too long. Send the file and its type only.',
    };
    return new AppError(
      400,
      'INVALID_UPLOAD',
      messages[err.code] ?? `The upload was rejected: ${err.message}.`,
    );
  }
  const e = err as { message?: string; status?: number } | null;
  if (
    e &&
    typeof e.message === 'string' &&
    /multipart|boundary|unexpected end of form|malformed/i.test(e.message)
  ) {
    return new AppError(
      400,
      'INVALID_UPLOAD',
      'The upload is not a valid multipart form. Send the file as multipart/form-data in a field named "file".',
    );
  }
  return err;
}
