import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import {
  applyMappingToBuffer,
  isCsvEngineError,
  previewMapping,
  validateMappings,
  type ApplyOptions,
  type ControlTotal,
  type MappingPair,
  type Warning,
} from '@csv-mapper/csv-engine';
import { findBuiltInTemplate, limitsOf, requiredColumns, UNLIMITED } from '@csv-mapper/domain';
import { UsageHistoryEntity } from '@csv-mapper/db';
import type { AuthUser } from '../auth/auth-user';
import { AppError } from '../common/app-error';
import { UploadsService, type StoredUploadView } from '../uploads/uploads.service';
import { VIRTUAL_TEMPLATE_PREFIX, type ProcessRequest } from './process-request';

// Runs a mapping over an uploaded data file: validates the request against both files, reserves the rows
// against the monthly quota in one atomic UPDATE, applies the engine, records usage, and gives back the
// spec's process response. Rows a run could not use (an engine error, fewer rows than counted) are refunded.

export const MAX_WARNINGS = 100;
export const PREVIEW_ROWS = 10;

export interface ProcessResponse {
  csvData: string;
  filename: string;
  rowsProcessed: number;
  totalRowsInFile: number;
  limitExceeded: boolean;
  limitType: 'monthlyQuota' | 'rows' | null;
  warningCount: number;
  warnings: Warning[];
  controlTotals: ControlTotal[];
}

export interface PreviewResponse {
  headers: string[];
  rows: string[][];
  warningCount: number;
  warnings: Warning[];
  totalRowsInFile: number;
}

interface Prepared {
  templateHeaders: string[];
  required: string[];
  data: StoredUploadView;
}

@Injectable()
export class ProcessingService {
  constructor(
    private readonly uploads: UploadsService,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  async process(user: AuthUser, req: ProcessRequest): Promise<ProcessResponse> {
    const { templateHeaders, required, data } = await this.prepare(user, req, true);
    const limits = limitsOf(user.plan);
    const fileRows = data.info.rowCount;
    const perFile =
      limits.maxRowsPerFile === UNLIMITED ? fileRows : Math.min(fileRows, limits.maxRowsPerFile);
    const granted = await this.reserve(user.id, perFile, limits.maxMonthlyRows);
    let limitType: ProcessResponse['limitType'] = null;
    if (granted < perFile) limitType = 'monthlyQuota';
    else if (perFile < fileRows) limitType = 'rows';

    let result: Awaited<ReturnType<typeof applyMappingToBuffer>>;
    try {
      const { stream } = await this.uploads.open(req.dataFileId, user.id, 'Data file');
      result = await applyMappingToBuffer(stream, templateHeaders, req.mappings, {
        ...this.applyOptions(data, required),
        ...req.options,
        maxRows: granted,
        maxWarnings: MAX_WARNINGS,
      });
    } catch (err) {
      await this.refund(user.id, granted);
      throw engineError(err);
    }
    const rowsProcessed = result.stats.rowsOut;
    if (rowsProcessed < granted) await this.refund(user.id, granted - rowsProcessed);
    await this.db.getRepository(UsageHistoryEntity).insert({
      userId: user.id,
      rowsProcessed,
      fileSizeBytes: data.meta.size,
      filename: data.meta.filename.slice(0, 255),
    });
    return {
      csvData: result.data.toString('utf8'),
      filename: outputName(data.meta.filename),
      rowsProcessed,
      totalRowsInFile: fileRows,
      limitExceeded: limitType !== null,
      limitType,
      warningCount: result.stats.warningCount,
      warnings: result.stats.warnings,
      controlTotals: result.stats.controlTotals,
    };
  }

  /** The first output rows for the current (possibly incomplete) mappings; uses no quota. */
  async preview(user: AuthUser, req: ProcessRequest): Promise<PreviewResponse> {
    const { templateHeaders, required, data } = await this.prepare(user, req, false);
    try {
      const { stream } = await this.uploads.open(req.dataFileId, user.id, 'Data file');
      const result = await previewMapping(stream, templateHeaders, req.mappings, {
        ...this.applyOptions(data, required),
        formulaProtection: req.options.formulaProtection,
        rows: PREVIEW_ROWS,
        maxWarnings: MAX_WARNINGS,
      });
      return {
        headers: result.headers,
        rows: result.rows,
        warningCount: result.stats.warningCount,
        warnings: result.stats.warnings,
        totalRowsInFile: data.info.rowCount,
      };
    } catch (err) {
      throw engineError(err);
    }
  }

  private applyOptions(data: StoredUploadView, required: string[]): ApplyOptions {
    return {
      input: { encoding: data.info.encoding, headerRow: data.info.headerRow },
      ...(required.length > 0 ? { required } : {}),
    };
  }

  private async prepare(user: AuthUser, req: ProcessRequest, complete: boolean): Promise<Prepared> {
    let templateHeaders: string[];
    let required: string[] = [];
    if (req.templateFileId.startsWith(VIRTUAL_TEMPLATE_PREFIX)) {
      if (!req.templateHeaders || req.templateHeaders.length === 0) {
        throw new AppError(
          400,
          'TEMPLATE_HEADERS_REQUIRED',
          'A virtual template needs its columns: send templateHeaders with the request.',
        );
      }
      templateHeaders = req.templateHeaders;
      // A built-in template keeps its required columns (virtual-template-<built-in id>).
      const builtIn = findBuiltInTemplate(req.templateFileId.slice(VIRTUAL_TEMPLATE_PREFIX.length));
      if (builtIn && builtIn.columns.every((c, i) => c.name === templateHeaders[i])) {
        required = requiredColumns(builtIn);
      }
    } else {
      const template = await this.uploads.get(req.templateFileId, user.id, 'Template file');
      templateHeaders = template.info.headers;
    }
    const data = await this.uploads.get(req.dataFileId, user.id, 'Data file');
    try {
      validateMappings(templateHeaders, req.mappings);
    } catch (err) {
      throw engineError(err);
    }
    const dataHeaders = new Set(data.info.headers);
    for (const m of req.mappings) {
      const sources =
        m.transform?.kind === 'debitCredit'
          ? [m.transform.debitColumn, m.transform.creditColumn]
          : m.transform?.kind === 'constant'
            ? []
            : [m.dataColumn];
      for (const s of sources) {
        if (!dataHeaders.has(s)) {
          throw new AppError(
            400,
            'UNKNOWN_COLUMN',
            `"${s}" is not a column of the data file. Its columns are: ${data.info.headers.join(', ')}.`,
          );
        }
      }
    }
    const used = new Map<string, string>();
    for (const m of req.mappings) {
      if (!m.dataColumn || m.transform?.kind === 'constant' || m.transform?.kind === 'debitCredit') continue;
      const other = used.get(m.dataColumn);
      if (other !== undefined) {
        throw new AppError(
          400,
          'DUPLICATE_MAPPING',
          `Data column "${m.dataColumn}" is mapped to both "${other}" and "${m.templateColumn}". Map each data column once.`,
        );
      }
      used.set(m.dataColumn, m.templateColumn);
    }
    if (complete) {
      const mapped = new Set(req.mappings.map((m) => m.templateColumn));
      const missing = templateHeaders.filter((h) => !mapped.has(h));
      if (missing.length > 0) {
        throw new AppError(
          400,
          'UNMAPPED_COLUMNS',
          `Please map all template columns: ${missing.join(', ')}`,
          {
            missing,
          },
        );
      }
    }
    return { templateHeaders, required, data };
  }

  /**
   * Reserves up to `wanted` rows of the monthly quota in ONE statement: the row lock of FOR UPDATE makes
   * concurrent runs queue, so together they can never pass the limit. Starts a new month's count lazily if
   * the monthly reset has not run yet. Returns the rows granted.
   */
  private async reserve(userId: string, wanted: number, monthlyLimit: number): Promise<number> {
    const rows = (await this.db.query(
      `WITH cur AS (
         SELECT id,
                CASE WHEN date_trunc('month', COALESCE(last_reset_at, created_at)) < date_trunc('month', now())
                     THEN 0 ELSE monthly_rows_used END AS used,
                date_trunc('month', COALESCE(last_reset_at, created_at)) < date_trunc('month', now()) AS stale
           FROM users WHERE id = $1 FOR UPDATE
       ), grant_ AS (
         SELECT id, used, stale,
                CASE WHEN $3::bigint < 0 THEN $2::bigint
                     ELSE LEAST($2::bigint, GREATEST($3::bigint - used, 0)) END AS granted
           FROM cur
       )
       UPDATE users u
          SET monthly_rows_used = g.used + g.granted,
              last_reset_at = CASE WHEN g.stale THEN now() ELSE u.last_reset_at END
         FROM grant_ g
        WHERE u.id = g.id
      RETURNING g.granted AS granted`,
      [userId, wanted, monthlyLimit],
    )) as [{ granted: string | number }[], number] | { granted: string | number }[];
    const list = Array.isArray(rows[0])
      ? (rows[0] as { granted: string | number }[])
      : (rows as { granted: string | number }[]);
    if (list.length === 0)
      throw new AppError(401, 'UNAUTHORIZED', 'Unauthorized: your account no longer exists.');
    return Number(list[0].granted);
  }

  private async refund(userId: string, rows: number): Promise<void> {
    if (rows <= 0) return;
    await this.db.query(
      'UPDATE users SET monthly_rows_used = GREATEST(monthly_rows_used - $2, 0) WHERE id = $1',
      [userId, rows],
    );
  }
}

function engineError(err: unknown): unknown {
  if (isCsvEngineError(err)) return new AppError(err.status, err.code, err.message);
  return err;
}

/** `mapped_<data name>.csv`, safe for a download header. */
export function outputName(dataFilename: string): string {
  const base =
    dataFilename
      .replace(/[\\/]/g, '_')
      .replace(/["\r\n]/g, '')
      .trim() || 'data.csv';
  return `mapped_${/\.csv$/i.test(base) ? base : `${base}.csv`}`;
}

export type { MappingPair };
