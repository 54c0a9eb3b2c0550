import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import {
  inspect,
  inspectWorkbook,
  isCsvEngineError,
  sourceChunks,
  type CsvInput,
  type InspectResult,
  type ReadOptions,
  type WorkbookLimits,
} from '@csv-mapper/csv-engine';
import type { UpdateUploadRequest } from '@csv-mapper/contracts';
import { limitsOf, UNLIMITED } from '@csv-mapper/domain';
import { BlobNotFoundError, BlobStore, type BlobMeta } from '@csv-mapper/queue';
import type { AuthUser } from '../auth/auth-user';
import { AppError } from '../common/app-error';
import { ApiConfig } from '../config/api.config';
import { SourceDriftService } from '../mappings/source-drift.service';
import { discardOutcome } from './csv-storage.engine';
import type { ReceivedUpload } from './multipart-upload.interceptor';
import {
  definedOnly,
  infoOf,
  isUploadType,
  readOptionsOf,
  sourceSpecOf,
  uploadInfo,
  type ReadChoices,
  type UploadInfo,
  type UploadRecord,
  type UploadType,
} from './upload-record';

// Owns uploaded files: recording what MultipartUploadInterceptor stored (multipart → inspector → BlobStore),
// describing, reading and deleting them. Every read is owner-checked by the store; someone else's id looks
// exactly like a missing one.

/** A workbook may unpack to this many times the largest file the plan accepts… */
const WORKBOOK_UNPACK_RATIO = 20;
/** …and never past this, whatever the plan. */
const WORKBOOK_UNPACK_CEILING = 1024 * 1024 * 1024;

export interface StoredUploadView {
  meta: BlobMeta<UploadInfo>;
  info: UploadInfo;
}

@Injectable()
export class UploadsService {
  constructor(
    private readonly store: BlobStore,
    private readonly config: ApiConfig,
    private readonly sourceDrift: SourceDriftService,
  ) {}

  /** Inspects and records the file a multipart upload stored (its transport: MultipartUploadInterceptor). */
  async receive(upload: ReceivedUpload, user: AuthUser, fixedType?: UploadType): Promise<UploadRecord> {
    const result = upload.file;
    const type = fixedType ?? upload.fields.type;
    if (!result) {
      throw new AppError(
        400,
        'NO_FILE',
        'No file was uploaded. Choose a CSV file and send it in the "file" field.',
      );
    }
    if (!isUploadType(type)) {
      await discardOutcome(result);
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
          `"${result.filename}" is not a CSV file or an Excel workbook. Upload a .csv or .xlsx file.`,
        );
      case 'tooLarge':
      case 'badName':
        throw new Error(`unreachable: ${result.kind} is answered early`);
      case 'invalid':
        throw result.error;
      case 'stored':
        break;
    }
    const stored = result.result;
    const unpackLimits = this.workbookLimits(user);
    let meta: BlobMeta;
    let info: UploadInfo;
    let inspection: InspectResult;
    if (stored.format === 'csv') {
      inspection = stored.inspection;
      if (type === 'data' && inspection.rowCount === 0) {
        await stored.writer.abort();
        throw noDataRows(result.filename);
      }
      info = infoOf(type, inspection, { format: 'csv' });
      meta = await stored.writer.commit({ ...info });
    } else {
      // A workbook is read from the store in passes: commit its bytes, inspect, then record the result.
      const bare = await stored.writer.commit({ type, format: 'xlsx', headers: [], rowCount: 0 });
      try {
        const wb = await inspectWorkbook(this.opener(bare.id, user.teamId), {
          limits: unpackLimits,
          inspect: { sampleRows: 5 },
        });
        inspection = wb.inspection;
        if (type === 'data' && inspection.rowCount === 0) throw noDataRows(result.filename);
        info = infoOf(type, inspection, { format: 'xlsx', sheet: wb.sheet, sheets: wb.sheets });
        meta = await this.rewrite(bare, info);
      } catch (err) {
        await this.store.delete(bare.id, user.teamId).catch(() => undefined);
        throw err;
      }
    }
    return this.toRecord(user, meta, info, inspection);
  }

  /**
   * PATCH /api/upload/:id: reads the stored file again with the person's choices (nothing is uploaded
   * again) and keeps them, so every later read of the file (runs, previews, jobs) reads it the same way.
   */
  async update(id: string, user: AuthUser, body: UpdateUploadRequest): Promise<UploadRecord> {
    const { meta, info } = await this.get(id, user.teamId);
    const format = info.format ?? 'csv';
    if (format === 'xlsx' && (body.encoding !== undefined || body.delimiter !== undefined)) {
      throw new AppError(
        400,
        'NOT_A_WORKBOOK_OPTION',
        'A workbook has no encoding or delimiter to choose. Choose its sheet or header row instead.',
      );
    }
    if (format === 'csv' && body.sheet !== undefined) {
      throw new AppError(
        400,
        'NOT_A_WORKBOOK_OPTION',
        'Only Excel workbooks have sheets: this file is CSV. Choose its encoding, delimiter or header row instead.',
      );
    }
    const before = info.choices ?? {};
    // Another sheet starts from a detected header row unless one is chosen with it.
    const sheetChanged = body.sheet !== undefined && body.sheet !== info.sheet;
    const choices: ReadChoices = {
      ...before,
      ...(sheetChanged ? { headerRow: undefined } : {}),
      ...definedOnly(body),
    };
    let inspection: InspectResult;
    let next: UploadInfo;
    try {
      if (format === 'xlsx') {
        const wb = await inspectWorkbook(this.opener(id, user.teamId), {
          sheet: choices.sheet ?? info.sheet,
          sheets: info.sheets,
          limits: this.workbookLimits(user),
          inspect: { sampleRows: 5, headerRow: choices.headerRow },
        });
        inspection = wb.inspection;
        next = infoOf(info.type, inspection, { format, sheet: wb.sheet, sheets: wb.sheets, choices });
      } else {
        const { stream } = await this.open(id, user.teamId);
        inspection = await inspect(stream, {
          sampleRows: 5,
          encoding: choices.encoding,
          delimiter: choices.delimiter,
          headerRow: choices.headerRow,
        });
        next = infoOf(info.type, inspection, { format, choices });
      }
    } catch (err) {
      if (choices.headerRow !== undefined && isCsvEngineError(err) && err.code === 'EMPTY_FILE') {
        throw headerRowPastEnd(choices.headerRow);
      }
      throw err;
    }
    if (choices.headerRow !== undefined && inspection.headerRow !== choices.headerRow) {
      throw headerRowPastEnd(choices.headerRow);
    }
    if (info.type === 'data' && inspection.rowCount === 0) {
      throw new AppError(
        400,
        'NO_DATA_ROWS',
        inspection.headerRow === 0
          ? `"${meta.filename}" has no rows to read. Upload the data file with its rows.`
          : `With the header on line ${inspection.headerRow}, "${meta.filename}" has no data rows below it. Choose an earlier header row.`,
      );
    }
    const saved = await this.rewrite(meta, next);
    return this.toRecord(user, saved, next, inspection);
  }

  /** The answer to a CSV stored directly in object storage: the same as a multipart upload's. */
  async recordFor(
    user: AuthUser,
    meta: BlobMeta<unknown>,
    inspection: InspectResult,
    type: UploadType,
  ): Promise<UploadRecord> {
    return this.toRecord(user, meta, uploadInfo(type, inspection), inspection);
  }

  /** How the stored file is read everywhere: its bytes (a workbook's sheet as CSV) and read options. */
  async openSource(
    id: string,
    ownerId: string,
    label = 'File',
  ): Promise<{ meta: BlobMeta<UploadInfo>; info: UploadInfo; input: CsvInput; read: ReadOptions }> {
    const { meta, info } = await this.get(id, ownerId, label);
    const input = sourceChunks(this.opener(id, ownerId, label), sourceSpecOf(info));
    return { meta, info, input, read: readOptionsOf(info) };
  }

  /** The caps on what a workbook may unpack to: 20× the largest file the user may upload, at most 1 GiB. */
  workbookLimits(user: AuthUser): WorkbookLimits {
    const limits = limitsOf(user.plan);
    const planBytes = limits.maxFileSize === UNLIMITED ? Infinity : limits.maxFileSize;
    const maxBytes = Math.min(planBytes, this.config.memoryStoreMaxFileBytes);
    const total = Math.min(maxBytes * WORKBOOK_UNPACK_RATIO, WORKBOOK_UNPACK_CEILING);
    return { maxTotalBytes: total, maxEntryBytes: total, maxEntries: 10_000 };
  }

  private opener(id: string, ownerId: string, label = 'File'): () => Promise<Readable> {
    return async () => (await this.open(id, ownerId, label)).stream;
  }

  /**
   * Stores new details beside an upload's bytes. The store keeps details only at commit, so the bytes
   * are copied into a new commit of the same id (which replaces the old one atomically).
   */
  private async rewrite(meta: BlobMeta<unknown>, info: UploadInfo): Promise<BlobMeta> {
    const { stream } = await this.open(meta.id, meta.ownerId);
    const writer = this.store.createWriter('upload', meta.ownerId, meta.filename, meta.id);
    try {
      for await (const chunk of stream) await writer.write(chunk as Buffer);
      return await writer.commit({ ...info, uploadedAt: info.uploadedAt ?? meta.createdAt });
    } catch (err) {
      await writer.abort().catch(() => undefined);
      throw err;
    }
  }

  private async toRecord(
    user: AuthUser,
    meta: BlobMeta<unknown>,
    info: UploadInfo,
    inspection: InspectResult,
  ): Promise<UploadRecord> {
    const limits = limitsOf(user.plan);
    const xlsx = info.format === 'xlsx';
    const record: UploadRecord = {
      id: meta.id,
      filename: meta.filename,
      headers: info.headers,
      data: inspection.sampleRows,
      type: info.type,
      uploadedAt: info.uploadedAt ?? meta.createdAt,
      size: meta.size,
      rowCount: info.rowCount,
      delimiter: info.delimiter,
      encoding: info.encoding,
      encodingReason: xlsx ? 'Read from an Excel workbook (.xlsx).' : inspection.encodingReason,
      headerRow: info.headerRow,
      ...(inspection.detectedHeaderRow !== undefined
        ? { detectedHeaderRow: inspection.detectedHeaderRow }
        : {}),
      format: info.format ?? 'csv',
      ...(xlsx ? { sheets: info.sheets, sheet: info.sheet } : {}),
      firstLines: inspection.firstLines,
      bom: info.bom ?? inspection.bom,
      lineEnding: info.lineEnding ?? inspection.lineEnding,
      columns: inspection.columns,
    };
    if (info.type === 'data') {
      record.matchingMappings = await this.sourceDrift.matches(user, {
        headers: info.headers,
        rows: inspection.sampleRows,
        inferred: inspection.columns.map((c) => c.inferred),
      });
    }
    if (
      info.type === 'data' &&
      limits.maxRowsPerFile !== UNLIMITED &&
      info.rowCount > limits.maxRowsPerFile
    ) {
      record.exceedsRowLimit = true;
      record.actualRows = info.rowCount;
      record.maxRows = limits.maxRowsPerFile;
    }
    return record;
  }

  /** The upload's meta and inspection, or 404 when it is missing, expired or someone else's. */
  async get(id: string, ownerId: string, label = 'File'): Promise<StoredUploadView> {
    try {
      const meta = await this.store.getMeta<UploadInfo>(id, ownerId);
      return { meta, info: meta.info };
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

function noDataRows(filename: string): AppError {
  return new AppError(
    400,
    'NO_DATA_ROWS',
    `"${filename}" has a header row but no data rows. Upload the data file with its rows.`,
  );
}

function headerRowPastEnd(line: number): AppError {
  return new AppError(
    400,
    'HEADER_ROW_PAST_END',
    `Line ${line} is past the end of the file, so it cannot be the header row. Choose one of the lines shown.`,
  );
}

function notFound(err: unknown, label: string): unknown {
  if (err instanceof BlobNotFoundError) {
    return new AppError(404, 'FILE_NOT_FOUND', `${label} not found or expired. Upload it again.`);
  }
  return err;
}
