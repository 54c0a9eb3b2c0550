import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { CsvInspector, type InspectResult } from '@csv-mapper/csv-engine';
import { formatPlanFileSize, UNLIMITED } from '@csv-mapper/domain';
import { BlobNotFoundError, BlobStore, type PendingUpload } from '@csv-mapper/queue';
import type { PresignedUploadView, PresignUploadRequest } from '@csv-mapper/contracts';
import type { AuthUser } from '../auth/auth-user';
import { AppError } from '../common/app-error';
import { requirePlanFeature } from '../common/plan-feature';
import { invalidCharactersError } from '../common/text-input.middleware';
import { isCsvFile } from './csv-storage.engine';
import { uploadInfo, type UploadRecord, type UploadType } from './upload-record';
import { UploadsService } from './uploads.service';

// Enterprise direct uploads: the api hands out a presigned PUT, the client sends the bytes straight to
// object storage, and `complete` checks what arrived (size, CSV content, inspection streamed from storage)
// before the object becomes an upload, answered exactly like POST /api/upload answers.

/** How long a presigned PUT URL stays valid. */
export const PRESIGN_EXPIRES_SECONDS = 15 * 60;

interface PendingInfo {
  kind: UploadType;
  fileName: string;
}

@Injectable()
export class PresignedUploadsService {
  constructor(
    private readonly store: BlobStore,
    private readonly uploads: UploadsService,
  ) {}

  async presign(user: AuthUser, req: PresignUploadRequest): Promise<PresignedUploadView> {
    const limits = requirePlanFeature(
      user.plan,
      's3Uploads',
      'Direct uploads to storage are available on the Enterprise plan. Upgrade, or upload the file through POST /api/upload.',
    );
    if (this.store.driver !== 's3') throw directUnavailable();
    if (req.fileName.includes('\u0000')) throw invalidCharactersError();
    if (!isCsvFile(req.fileName, '')) {
      throw new AppError(
        415,
        'UNSUPPORTED_FILE_TYPE',
        `"${req.fileName}" is not a CSV file. Only .csv files can be uploaded: export the file as CSV first.`,
      );
    }
    if (limits.maxFileSize !== UNLIMITED && req.size > limits.maxFileSize) {
      throw new AppError(
        413,
        'FILE_TOO_LARGE',
        `File size exceeds your plan limit of ${formatPlanFileSize(limits.maxFileSize).replace(/MB$/, ' MB')}`,
        { size: req.size, maxFileSize: limits.maxFileSize },
      );
    }
    const info: PendingInfo = { kind: req.kind, fileName: req.fileName };
    return this.store.presignPut(user.id, {
      size: req.size,
      contentType: 'text/csv',
      expiresInSeconds: PRESIGN_EXPIRES_SECONDS,
      info: { ...info },
    });
  }

  async complete(user: AuthUser, uploadId: string): Promise<UploadRecord> {
    if (this.store.driver !== 's3') throw directUnavailable();
    let opened: Awaited<ReturnType<typeof this.store.openPending<PendingInfo>>>;
    try {
      opened = await this.store.openPending<PendingInfo>(uploadId, user.id);
    } catch (err) {
      if (err instanceof BlobNotFoundError) {
        throw new AppError(
          404,
          'UPLOAD_NOT_FOUND',
          'Upload not found or expired. Ask for a new upload URL (POST /api/upload/presign) and send the file again.',
        );
      }
      throw err;
    }
    const { pending, size } = opened;
    const { kind, fileName } = pending.info;
    if (size === null) {
      if (Date.parse(pending.expiresAt) < Date.now()) {
        await this.discard(pending);
        throw new AppError(
          410,
          'UPLOAD_EXPIRED',
          'The upload URL expired before the file arrived. Ask for a new one (POST /api/upload/presign) and send the file again.',
        );
      }
      throw new AppError(
        409,
        'UPLOAD_NOT_RECEIVED',
        `The file has not arrived in storage yet. PUT it to the upload URL before ${pending.expiresAt}, then call complete again.`,
      );
    }
    if (size !== pending.size) {
      await this.discard(pending);
      throw new AppError(
        400,
        'UPLOAD_SIZE_MISMATCH',
        `Storage holds ${size} bytes but the upload was announced as ${pending.size}. Ask for a new upload URL and send the whole file.`,
      );
    }
    let inspection: InspectResult;
    try {
      inspection = await inspect(await opened.open());
    } catch (err) {
      await this.discard(pending);
      throw err;
    }
    if (kind === 'data' && inspection.rowCount === 0) {
      await this.discard(pending);
      throw new AppError(
        400,
        'NO_DATA_ROWS',
        `"${fileName}" has a header row but no data rows. Upload the data file with its rows.`,
      );
    }
    const meta = await this.store.adoptPending(uploadId, user.id, 'upload', fileName, {
      ...uploadInfo(kind, inspection),
    });
    return this.uploads.recordFor(user, meta, inspection, kind);
  }

  private async discard(pending: PendingUpload<unknown>): Promise<void> {
    await this.store.discardPending(pending.uploadId, pending.ownerId).catch(() => undefined);
  }
}

/** Runs the engine's inspector over the object as it streams from storage (bounded memory). */
async function inspect(stream: Readable): Promise<InspectResult> {
  const inspector = new CsvInspector({ sampleRows: 5 });
  try {
    for await (const chunk of stream) inspector.push(chunk as Buffer);
  } catch (err) {
    stream.destroy();
    throw err;
  }
  return inspector.end();
}

function directUnavailable(): AppError {
  return new AppError(
    409,
    'DIRECT_UPLOAD_UNAVAILABLE',
    'This server keeps files in memory, so direct uploads to storage are off. Upload the file through POST /api/upload, or ask the operator to enable object storage (BLOB_STORE=s3).',
  );
}
