import {
  createParamDecorator,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import multer, { MulterError } from 'multer';
import type { Observable } from 'rxjs';
import { formatMegabytes, formatPlanFileSize, limitsOf, UNLIMITED } from '@csv-mapper/domain';
import { BlobStore } from '@csv-mapper/queue';
import type { AuthUser } from '../auth/auth-user';
import { AppError } from '../common/app-error';
import { invalidCharactersError } from '../common/text-input.middleware';
import { ApiConfig } from '../config/api.config';
import { CsvStorageEngine, discardOutcome, stopsEarly, type StoreOutcome } from './csv-storage.engine';

// The HTTP side of a multipart upload (POST /api/upload and its typed aliases): refuses a body too large
// to hold an acceptable file before reading it, counts uploads in flight per client IP, runs multer with
// the CsvStorageEngine (the file streams through the inspector into the BlobStore) and answers at once
// when the engine stops early (too large, unusable name) while the body is still streaming. The route
// gets what arrived as a ReceivedUpload (@StoredUpload()); UploadsService inspects and records it.

/** What a multipart upload left for its route: the stored file's outcome (null: no file) and the fields. */
export interface ReceivedUpload {
  file: StoreOutcome | null;
  fields: Record<string, unknown>;
  /** The other file parts a route asked for (receive's `extraFiles`), by field name; null: not sent. */
  extra?: Record<string, StoreOutcome | null>;
}

type UploadRequest = Request & { user?: AuthUser; receivedUpload?: ReceivedUpload };

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

/** The upload MultipartUploadInterceptor received for this request. */
export const StoredUpload = createParamDecorator((_data: unknown, ctx: ExecutionContext): ReceivedUpload => {
  const received = ctx.switchToHttp().getRequest<UploadRequest>().receivedUpload;
  if (!received) throw new Error('@StoredUpload() used on a route without MultipartUploadInterceptor');
  return received;
});

/**
 * Receives a multipart upload's body (the interceptor's work, and POST /api/mappings/:id/runs', which
 * looks the mapping up first). One instance: the per-IP count covers every upload route.
 */
@Injectable()
export class MultipartUploadReceiver {
  /** Uploads in flight per client IP (this instance). */
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly store: BlobStore,
    private readonly config: ApiConfig,
  ) {}

  /** `extraFiles`: names of further file parts the route takes (one file each) besides `file`. */
  async receive(
    req: Request,
    res: Response,
    user: AuthUser,
    extraFiles: readonly string[] = [],
  ): Promise<ReceivedUpload> {
    const limits = limitsOf(user.plan);
    const planBytes = limits.maxFileSize === UNLIMITED ? Infinity : limits.maxFileSize;
    // With the memory driver files live in Redis until processed: even "unlimited" plans stop at its ceiling.
    const maxBytes =
      this.store.driver === 'memory' ? Math.min(planBytes, this.config.memoryStoreMaxFileBytes) : planBytes;
    const declared = declaredLength(req);
    if (declared !== null && declared > maxBytes + MULTIPART_OVERHEAD) {
      throw tooLarge(res, declared, maxBytes, planBytes);
    }
    this.takeUploadSlot(req, res);
    const outcomes = new Map<string, StoreOutcome>();
    let stoppedEarly!: (o: StoreOutcome) => void;
    const early = new Promise<StoreOutcome>((resolve) => (stoppedEarly = resolve));
    const engine = new CsvStorageEngine({
      store: this.store,
      ownerId: user.teamId,
      maxBytes,
      onOutcome: (o, field) => {
        outcomes.set(field, o);
        if (stopsEarly(o)) stoppedEarly(o);
      },
    });
    const upload = multer({ storage: engine, limits: { ...MULTIPART_LIMITS, files: 1 + extraFiles.length } });
    const handle =
      extraFiles.length === 0
        ? upload.single('file')
        : upload.fields(['file', ...extraFiles].map((name) => ({ name, maxCount: 1 })));
    const parsed = new Promise<null>((resolve, reject) =>
      handle(req, res, (err: unknown) => (err ? reject(err) : resolve(null))),
    );
    parsed.catch(() => undefined); // after an early answer multer settles once the socket closes
    let stopped: StoreOutcome | null;
    try {
      // multer waits for the whole body before reporting an error; an early outcome answers at once.
      stopped = await Promise.race([parsed, early]);
    } catch (err) {
      for (const o of outcomes.values()) await discardOutcome(o);
      if (clientClosed(req, err)) {
        throw new AppError(
          499,
          'CLIENT_CLOSED_REQUEST',
          'The upload was interrupted before the file was complete.',
        );
      }
      throw multipartError(err);
    }
    // A file that stopped early fails the request: another file part already stored goes too.
    if (stopped) for (const o of outcomes.values()) await discardOutcome(o);
    if (stopped?.kind === 'tooLarge') {
      throw tooLarge(res, declared ?? stopped.size, maxBytes, planBytes, declared === null);
    }
    if (stopped?.kind === 'badName') {
      stopReading(res);
      throw invalidCharactersError();
    }
    const fields = (req.body ?? {}) as Record<string, unknown>;
    if (extraFiles.length === 0) return { file: outcomes.get('file') ?? null, fields };
    const extra = Object.fromEntries(extraFiles.map((name) => [name, outcomes.get(name) ?? null]));
    return { file: outcomes.get('file') ?? null, fields, extra };
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
}

/** Sets the request's ReceivedUpload for @StoredUpload(), by MultipartUploadReceiver; then the route runs. */
@Injectable()
export class MultipartUploadInterceptor implements NestInterceptor {
  constructor(private readonly receiver: MultipartUploadReceiver) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const req = http.getRequest<UploadRequest>();
    if (!req.user) throw new Error('MultipartUploadInterceptor used on a route without AuthGuard');
    req.receivedUpload = await this.receiver.receive(req, http.getResponse<Response>(), req.user);
    return next.handle();
  }
}

/**
 * 413 with the plan's message, or, past the memory store's ceiling, one that says how to raise it. The
 * connection closes after the answer, so the rest of the body is never read.
 */
function tooLarge(
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
