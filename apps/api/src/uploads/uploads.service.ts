import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer, { MulterError } from 'multer';
import type { Readable } from 'node:stream';
import {
  inspect,
  inspectWorkbook,
  isCsvEngineError,
  sourceChunks,
  type CsvInput,
  type InspectResult,
  type ReadOptions,
  type SourceSpec,
  type WorkbookLimits,
} from '@csv-mapper/csv-engine';
import type { Transform, UpdateUploadRequest } from '@csv-mapper/contracts';
import { formatMegabytes, formatPlanFileSize, limitsOf, UNLIMITED } from '@csv-mapper/domain';
import { BlobNotFoundError, BlobStore, type BlobMeta } from '@csv-mapper/queue';
import type { AuthUser } from '../auth/auth-user';
import { AppError } from '../common/app-error';
import { invalidCharactersError } from '../common/text-input.middleware';
import { ApiConfig } from '../config/api.config';
import { SourceDriftService } from '../mappings/source-drift.service';
import { CsvStorageEngine, stopsEarly, type StoreOutcome } from './csv-storage.engine';
import {
  isUploadType,
  type ReadChoices,
  type UploadInfo,
  type UploadRecord,
  type UploadType,
} from './upload-record';

// Owns uploaded files: receiving them (multipart → inspector → BlobStore), describing, reading and deleting
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

/**
 * Bytes a multipart body may carry around a file that is within the limit: busboy caps a part's headers at
 * 16 KiB, and MULTIPART_LIMITS allows 12 parts and 10 small fields. A Content-Length beyond the limit plus
 * this cannot hold an acceptable file, so it is refused before a byte of the body is read.
 */
const MULTIPART_OVERHEAD = 256 * 1024;
/** Seconds a client is asked to wait when it already has UPLOADS_PER_IP uploads in flight. */
const UPLOAD_SLOT_RETRY_AFTER = 5;
/** A workbook may unpack to this many times the largest file the plan accepts… */
const WORKBOOK_UNPACK_RATIO = 20;
/** …and never past this, whatever the plan. */
const WORKBOOK_UNPACK_CEILING = 1024 * 1024 * 1024;

export interface StoredUploadView {
  meta: BlobMeta;
  info: UploadInfo;
}

@Injectable()
export class UploadsService {
  /** Uploads in flight per client IP (this instance). */
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly store: BlobStore,
    private readonly config: ApiConfig,
    private readonly sourceDrift: SourceDriftService,
  ) {}

  async receive(req: Request, res: Response, user: AuthUser, fixedType?: UploadType): Promise<UploadRecord> {
    const limits = limitsOf(user.plan);
    const planBytes = limits.maxFileSize === UNLIMITED ? Infinity : limits.maxFileSize;
    // With the memory driver files live in Redis until processed: even "unlimited" plans stop at its ceiling.
    const maxBytes =
      this.store.driver === 'memory' ? Math.min(planBytes, this.config.memoryStoreMaxFileBytes) : planBytes;
    const declared = declaredLength(req);
    if (declared !== null && declared > maxBytes + MULTIPART_OVERHEAD) {
      throw this.tooLarge(res, declared, maxBytes, planBytes);
    }
    this.takeUploadSlot(req, res);
    let outcome: StoreOutcome | null = null;
    let stoppedEarly!: (o: StoreOutcome) => void;
    const early = new Promise<StoreOutcome>((resolve) => (stoppedEarly = resolve));
    const engine = new CsvStorageEngine({
      store: this.store,
      ownerId: user.teamId,
      maxBytes,
      onOutcome: (o) => {
        outcome = o;
        if (stopsEarly(o)) stoppedEarly(o);
      },
    });
    const handle = multer({ storage: engine, limits: MULTIPART_LIMITS }).single('file');
    const parsed = new Promise<null>((resolve, reject) =>
      handle(req, res, (err: unknown) => (err ? reject(err) : resolve(null))),
    );
    parsed.catch(() => undefined); // after an early answer multer settles once the socket closes
    let stopped: StoreOutcome | null;
    try {
      // multer waits for the whole body before reporting an error; an early outcome answers at once.
      stopped = await Promise.race([parsed, early]);
    } catch (err) {
      await discard(outcome);
      if (clientClosed(req, err)) {
        throw new AppError(
          499,
          'CLIENT_CLOSED_REQUEST',
          'The upload was interrupted before the file was complete.',
        );
      }
      throw multipartError(err);
    }
    if (stopped?.kind === 'tooLarge') {
      throw this.tooLarge(res, declared ?? stopped.size, maxBytes, planBytes, declared === null);
    }
    if (stopped?.kind === 'badName') {
      stopReading(res);
      throw invalidCharactersError();
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
    meta: BlobMeta,
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
  ): Promise<{ meta: BlobMeta; info: UploadInfo; input: CsvInput; read: ReadOptions }> {
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
  private async rewrite(meta: BlobMeta, info: UploadInfo): Promise<BlobMeta> {
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
    meta: BlobMeta,
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

  /**
   * 413 with the plan's message, or, past the memory store's ceiling, one that says how to raise it. The
   * connection closes after the answer, so the rest of the body is never read.
   */
  private tooLarge(
    res: Response,
    size: number,
    maxBytes: number,
    planBytes: number,
    atLeast = false,
  ): AppError {
    stopReading(res);
    const shown = `${atLeast ? 'over ' : ''}${formatMegabytes(size)}`;
    if (maxBytes < planBytes) {
      const ceilingMb = Math.round(maxBytes / (1024 * 1024));
      return new AppError(
        413,
        'FILE_TOO_LARGE',
        `File size (${shown}) exceeds the largest file this server can hold while it is mapped (${ceilingMb} MB). ` +
          `Split the file, or ask the operator to enable object storage (BLOB_STORE=s3) or raise MEMORY_STORE_MAX_FILE_MB.`,
        { size, maxFileSize: maxBytes, limit: 'MEMORY_STORE_MAX_FILE_MB' },
      );
    }
    return new AppError(
      413,
      'FILE_TOO_LARGE',
      `File size (${shown}) exceeds your plan limit of ${formatPlanFileSize(maxBytes).replace(/MB$/, ' MB')}`,
      { size, maxFileSize: maxBytes },
    );
  }

  /** Counts this upload against its IP until the response closes; over UPLOADS_PER_IP it is a 429. */
  private takeUploadSlot(req: Request, res: Response): void {
    const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const n = this.inFlight.get(ip) ?? 0;
    if (n >= this.config.uploadsPerIp) {
      res.setHeader('Retry-After', String(UPLOAD_SLOT_RETRY_AFTER));
      stopReading(res);
      throw new AppError(
        429,
        'TOO_MANY_UPLOADS',
        `You already have ${n} uploads in progress. Wait for one to finish, then try again.`,
      );
    }
    this.inFlight.set(ip, n + 1);
    res.once('close', () => {
      const left = (this.inFlight.get(ip) ?? 1) - 1;
      if (left > 0) this.inFlight.set(ip, left);
      else this.inFlight.delete(ip);
    });
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

function infoOf(
  type: UploadType,
  inspection: InspectResult,
  extra: Pick<UploadInfo, 'format' | 'sheet' | 'sheets' | 'choices'>,
): UploadInfo {
  return {
    type,
    headers: inspection.headers,
    rowCount: inspection.rowCount,
    delimiter: inspection.delimiter,
    encoding: inspection.encoding,
    headerRow: inspection.headerRow,
    // "Match the template" takes these from a template file; a workbook has none: RFC 4180's.
    bom: extra.format === 'xlsx' ? false : inspection.bom,
    lineEnding: extra.format === 'xlsx' ? '\r\n' : inspection.lineEnding,
    ...(type === 'data' ? { inferred: inspection.columns.map((c) => c.inferred as Transform | null) } : {}),
    ...extra,
  };
}

/** The read options that reproduce what was decided at upload (or chosen since). */
export function readOptionsOf(info: UploadInfo): ReadOptions {
  // headerRow 0: no header row (every record is data, columns `Column 1…N`).
  if (info.format === 'xlsx') return { encoding: 'utf-8', delimiter: ',', headerRow: info.headerRow };
  return {
    encoding: info.encoding,
    delimiter: info.delimiter as ReadOptions['delimiter'],
    headerRow: info.headerRow,
  };
}

/** What the reader must do before the CSV reader sees the bytes (a workbook: which sheet). */
export function sourceSpecOf(info: UploadInfo, limits?: WorkbookLimits): SourceSpec {
  return info.format === 'xlsx' ? { format: 'xlsx', sheet: info.sheet, limits } : { format: 'csv' };
}

function definedOnly(body: UpdateUploadRequest): ReadChoices {
  const out: ReadChoices = {};
  if (body.encoding !== undefined) out.encoding = body.encoding;
  if (body.delimiter !== undefined) out.delimiter = body.delimiter;
  if (body.headerRow !== undefined) out.headerRow = body.headerRow;
  if (body.sheet !== undefined) out.sheet = body.sheet;
  return out;
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

/** The request's Content-Length, or null when it is absent or not a plain number (chunked bodies). */
function declaredLength(req: Request): number | null {
  const v = req.headers['content-length'];
  return typeof v === 'string' && /^\d{1,16}$/.test(v) ? Number(v) : null;
}

/** Closes the connection after the answer, so an unread body is dropped rather than read to its end. */
function stopReading(res: Response): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
}

/** The client went away mid-body (closed the tab, lost the line): not a server failure. */
function clientClosed(req: Request, err: unknown): boolean {
  const message = (err as { message?: unknown } | null)?.message;
  return (
    req.readableAborted ||
    (req.destroyed && !req.readableEnded) ||
    message === 'Request aborted' ||
    message === 'Request closed'
  );
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

/** What the meta keeps beside an uploaded CSV's bytes, from its inspection (presigned uploads too). */
export function uploadInfo(type: UploadType, inspection: InspectResult): UploadInfo {
  return infoOf(type, inspection, { format: 'csv' });
}
