import { Injectable } from '@nestjs/common';
import {
  applyMappingToBuffer,
  isCsvEngineError,
  pairSources,
  previewMapping,
  resolveOutputOptions,
  runTotals,
  validateMappings,
  writeOptionsOf,
  validateTemplateRules,
  type ApplyOptions,
  type TemplateFormat,
} from '@csv-mapper/csv-engine';
import { createHash } from 'node:crypto';
import {
  findBuiltInTemplate,
  limitsOf,
  outputFilename,
  requiredColumns,
  templateRulesOf,
  VIRTUAL_TEMPLATE_PREFIX,
  withDerivedPairs,
} from '@csv-mapper/domain';
import { ISSUES_MAX, type HeldLock } from '@csv-mapper/queue';
import { ApiConfig } from '../config/api.config';
import { JobsService } from '../jobs/jobs.service';
import { ReviewService } from '../jobs/review.service';
import { MappingsService } from '../mappings/mappings.service';
import { recogniseBuiltInTemplate } from '../mappings/recognised-template';
import { IdempotencyService, type IdempotentResult } from './idempotency.service';
import { QuotaLedger, rowsAllowedForFile, RunHistoryStore, type StartedRun } from '@csv-mapper/db';
import type { AuthUser } from '../auth/auth-user';
import { AppError } from '../common/app-error';
import { readOptionsOf, sourceSpecOf } from '../uploads/upload-record';
import { UploadsService, type StoredUploadView } from '../uploads/uploads.service';
import type {
  OutputOptions,
  PreviewResponse,
  DuplicatesMode,
  MappingRunSource,
  ProcessCsvPayload,
  ProcessRequest,
  ProcessResponse,
  QueuedResponse,
  ResolvedOutputOptions,
  TemplateRules,
} from '@csv-mapper/contracts';

// Runs a mapping over an uploaded data file: validates the request against both files, reserves the rows
// (QuotaLedger: the plan's rows-per-file and monthly caps), applies the engine or queues a job, commits the
// usage, and gives back the spec's process response. Rows a run could not use are refunded.

export const MAX_WARNINGS = 100;
export const PREVIEW_ROWS = 10;

export interface Prepared {
  templateHeaders: string[];
  /** The built-in template's rules, then the saved mapping's, then the request's (by column). */
  templateRules: TemplateRules;
  templateFilename: string | null;
  /** The settings the result is written with (request options over the saved mapping's, then the template's). */
  output: ResolvedOutputOptions;
  mapping: {
    id: string;
    name: string;
    duplicates: DuplicatesMode;
    historyKeyColumns: string[] | null;
  } | null;
  required: string[];
  data: StoredUploadView;
}

@Injectable()
export class ProcessingService {
  constructor(
    private readonly uploads: UploadsService,
    private readonly jobs: JobsService,
    private readonly config: ApiConfig,
    private readonly mappings: MappingsService,
    private readonly idempotency: IdempotencyService,
    private readonly quota: QuotaLedger,
    private readonly review: ReviewService,
    private readonly history: RunHistoryStore,
  ) {}

  /** `process` under an Idempotency-Key: a repeat within 24 h answers the same (the same job). */
  async processIdempotent(
    user: AuthUser,
    req: ProcessRequest,
    key: string,
  ): Promise<IdempotentResult<ProcessResponse | QueuedResponse>> {
    return this.idempotency.run(user.id, key, req, async () => {
      const body = await this.process(user, req, key);
      const queued = 'jobId' in body;
      return { status: queued ? 202 : 200, body, large: !queued };
    });
  }

  /** `idempotencyKey` (when sent) is part of the double-submit key: another key is another job. */
  async process(
    user: AuthUser,
    input: ProcessRequest,
    idempotencyKey = '',
  ): Promise<ProcessResponse | QueuedResponse> {
    const prepared = await this.prepare(user, input, true);
    const { templateHeaders, data, req } = prepared;
    const limits = limitsOf(user.plan);
    if (req.async && !limits.asyncProcessing) {
      throw new AppError(
        403,
        'PLAN_FEATURE_UNAVAILABLE',
        'Background (async) processing is available on the Business and Enterprise plans. Send the request without "async" or upgrade.',
      );
    }
    const fileRows = data.info.rowCount;
    const perFile = rowsAllowedForFile(user.plan, fileRows);
    const background = req.async === true || perFile > this.config.syncRowLimit;
    // A double submit of the same request is one job: answer the existing one without reserving again.
    // The data file's reading choices are part of the request: read another way, it is another job.
    const reading = { ...readOptionsOf(data.info), sheet: data.info.sheet };
    const dedupeKey = background ? requestKey(user.id, req, templateHeaders, idempotencyKey, reading) : '';
    let claim: HeldLock | null = null;
    if (background) {
      const { existing, held } = await this.jobs.awaitExistingOrClaim(user.id, dedupeKey);
      if (existing) return { ...existing, totalRowsInFile: fileRows, limitExceeded: false, limitType: null };
      claim = held;
    }
    try {
      return await this.run(user, req, {
        ...prepared,
        fileRows,
        background,
        dedupeKey,
      });
    } finally {
      await claim?.release();
    }
  }

  private async run(
    user: AuthUser,
    req: ProcessRequest,
    p: Prepared & { fileRows: number; background: boolean; dedupeKey: string },
  ): Promise<ProcessResponse | QueuedResponse> {
    const { templateHeaders, required, data, fileRows, background, dedupeKey } = p;
    const { output } = p;
    const reservation = await this.quota.reserveForFile(user.teamId, user.plan, fileRows);
    if (!reservation) throw new AppError(401, 'UNAUTHORIZED', 'Unauthorized: your account no longer exists.');
    const { granted, limitType } = reservation;
    const limit = limitType === null ? null : limitType === 'monthlyQuota' ? 'monthlyQuota' : 'rowLimit';

    if (background && granted > 0) {
      try {
        const jobId = await this.jobs.enqueueProcessCsv(
          user.plan,
          this.jobPayload(user, req, p, granted, null, limit),
          dedupeKey,
        );
        return {
          jobId,
          status: 'queued',
          rowsToProcess: granted,
          totalRowsInFile: fileRows,
          limitExceeded: limitType !== null,
          limitType,
        };
      } catch (err) {
        await this.quota.refund(user.teamId, granted);
        throw err;
      }
    }

    let result: Awaited<ReturnType<typeof applyMappingToBuffer>>;
    // A saved mapping's run: recorded, and every row checked against what its earlier runs exported.
    let started: StartedRun | null = null;
    try {
      if (p.mapping) {
        started = await this.history.start({
          mappingId: p.mapping.id,
          teamId: user.teamId,
          userId: user.id,
          source: runSourceOf(user),
          duplicates: p.mapping.duplicates,
          keyColumns: p.mapping.historyKeyColumns,
          dataFilename: data.meta.filename,
        });
      }
      const { input } = await this.uploads.openSource(req.dataFileId, user.teamId, 'Data file');
      result = await applyMappingToBuffer(input, templateHeaders, req.mappings, {
        ...this.applyOptions(data, required),
        ...writeOptionsOf(output),
        ...(hasRules(p.templateRules) ? { templateRules: p.templateRules } : {}),
        maxRows: granted,
        // Every problem up to ISSUES_MAX is kept for the review routes; the answer carries the first 100.
        maxWarnings: ISSUES_MAX,
        ...(started ? { history: started.history } : {}),
      });
    } catch (err) {
      await this.quota.refund(user.teamId, granted);
      if (started) await this.history.fail(started.runId, failureCode(err));
      throw err;
    }
    const totals = runTotals(result.stats, fileRows, limit);
    if (started) {
      totals.alreadyExportedFrom = started.alreadyExportedFrom();
      await this.history.complete(started.runId, started.mappingId, started.history.fresh, {
        rowsRead: totals.rowsRead,
        rowsWritten: totals.rowsWritten,
        rowsAlreadyExported: totals.rowsAlreadyExported ?? 0,
        rowsSkipped: totals.rowsSkipped,
        controlTotals: result.stats.controlTotals,
      });
    }
    const rowsProcessed = result.stats.rowsOut;
    // A run with problems can be reviewed and fixed through the job routes, like a background job.
    const reviewId =
      result.stats.warningCount > 0
        ? await this.review.saveSyncRun(
            user.teamId,
            supersedes(syncRecord(this.jobPayload(user, req, p, 0)), started),
            result.stats,
          )
        : null;
    await this.quota.commit({
      userId: user.id,
      teamId: user.teamId,
      reservedRows: granted,
      rowsProcessed,
      fileSizeBytes: data.meta.size,
      filename: data.meta.filename,
    });
    const cp1252 = output.encoding === 'windows-1252';
    return {
      csvData: cp1252 ? new TextDecoder('windows-1252').decode(result.data) : result.data.toString('utf8'),
      ...(cp1252 ? { csvBase64: result.data.toString('base64') } : {}),
      output,
      totals,
      filename: outputFilename(data.meta.filename),
      rowsProcessed,
      totalRowsInFile: fileRows,
      limitExceeded: limitType !== null,
      limitType,
      warningCount: result.stats.warningCount,
      warnings: result.stats.warnings.slice(0, MAX_WARNINGS),
      controlTotals: result.stats.controlTotals,
      warningsByRule: result.stats.warningsByRule,
      ...(reviewId ? { reviewId } : {}),
    };
  }

  /** What a background job for `req` carries (ids and the mapping, never file contents). */
  jobPayload(
    user: AuthUser,
    req: Pick<ProcessRequest, 'dataFileId' | 'templateFileId' | 'mappings' | 'options'>,
    p: Prepared,
    granted: number,
    batchId: string | null = null,
    limitType: 'rowLimit' | 'monthlyQuota' | null = null,
  ): ProcessCsvPayload {
    return {
      userId: user.id,
      teamId: user.teamId,
      dataFileId: req.dataFileId,
      templateFileId: req.templateFileId,
      templateFilename: p.templateFilename ?? undefined,
      mappingId: p.mapping?.id ?? null,
      mappingName: p.mapping?.name ?? null,
      templateHeaders: p.templateHeaders,
      mappings: req.mappings,
      maxRows: granted,
      totalRows: p.data.info.rowCount,
      dataFilename: p.data.meta.filename,
      fileSizeBytes: p.data.meta.size,
      options: { ...this.applyOptions(p.data, p.required), ...writeOptionsOf(p.output) },
      output: p.output,
      limitType,
      ...(hasRules(p.templateRules) ? { templateRules: p.templateRules } : {}),
      source: sourceSpecOf(p.data.info, this.uploads.workbookLimits(user)),
      ...(batchId ? { batchId } : {}),
      ...(p.mapping
        ? {
            history: {
              source: batchId ? 'bulk' : runSourceOf(user),
              duplicates: p.mapping.duplicates,
              keyColumns: p.mapping.historyKeyColumns,
            },
          }
        : {}),
    };
  }

  /** The first output rows for the current (possibly incomplete) mappings; uses no quota. */
  async preview(user: AuthUser, input: ProcessRequest): Promise<PreviewResponse> {
    const prepared = await this.prepare(user, input, false);
    const { templateHeaders, required, data, req } = prepared;
    const { input: source } = await this.uploads.openSource(req.dataFileId, user.teamId, 'Data file');
    const result = await previewMapping(source, templateHeaders, req.mappings, {
      ...this.applyOptions(data, required),
      ...(hasRules(prepared.templateRules) ? { templateRules: prepared.templateRules } : {}),
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
  }

  private applyOptions(data: StoredUploadView, required: string[]): ApplyOptions {
    return {
      input: readOptionsOf(data.info),
      ...(required.length > 0 ? { required } : {}),
    };
  }

  /** The request with a saved mapping's pairs filled in (when it names one and sends none). */
  private async withSavedMapping(
    user: AuthUser,
    req: ProcessRequest,
  ): Promise<{
    req: ProcessRequest;
    mapping: Prepared['mapping'];
    savedOutput: OutputOptions | null;
    savedRules: TemplateRules;
  }> {
    if (!req.mappingId) return { req, mapping: null, savedOutput: null, savedRules: {} };
    const saved = await this.mappings.get(user, req.mappingId);
    const mapping = {
      id: saved.id,
      name: saved.name,
      duplicates: saved.duplicates,
      historyKeyColumns: saved.historyKeyColumns,
    };
    const savedRules = saved.templateRules ?? {};
    const savedOutput = saved.output;
    if (req.mappings.length > 0) return { req, mapping, savedOutput, savedRules };
    return { req: { ...req, mappings: saved.mappings }, mapping, savedOutput, savedRules };
  }

  /** Checks a request against both files (and a saved mapping); `complete` also wants every column mapped. */
  async prepare(
    user: AuthUser,
    input: ProcessRequest,
    complete: boolean,
  ): Promise<Prepared & { req: ProcessRequest }> {
    const saved = await this.withSavedMapping(user, input);
    const { mapping, savedOutput } = saved;
    let req = saved.req;
    let builtInRules: TemplateRules = {};
    let templateHeaders: string[];
    let templateFilename: string | null = null;
    let templateFormat: TemplateFormat | null = null;
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
        templateFilename = builtIn.name;
        builtInRules = templateRulesOf(builtIn);
        // e.g. Shopify's Handle as a slug of the Title when no column is mapped onto it
        req = { ...req, mappings: withDerivedPairs(builtIn, req.mappings) };
      }
    } else {
      const template = await this.uploads.get(req.templateFileId, user.teamId, 'Template file');
      templateHeaders = template.info.headers;
      templateFilename = template.meta.filename;
      templateFormat = {
        delimiter: template.info.delimiter,
        encoding: template.info.encoding,
        bom: template.info.bom ?? false,
        lineEnding: template.info.lineEnding ?? '\r\n',
      };
      // An uploaded template with a built-in's headers (Shopify's product CSV…) gets its rules and derived columns.
      const builtIn = recogniseBuiltInTemplate(templateHeaders);
      if (builtIn) {
        required = requiredColumns(builtIn);
        builtInRules = templateRulesOf(builtIn);
        req = { ...req, mappings: withDerivedPairs(builtIn, req.mappings) };
      }
    }
    if (req.unmappedColumns === 'empty') {
      // Every column without a pair is written empty on purpose (listed in totals.emptyColumns).
      const paired = new Set(req.mappings.map((m) => m.templateColumn));
      const empty = templateHeaders
        .filter((h) => !paired.has(h))
        .map((h) => ({ templateColumn: h, dataColumn: '', empty: true }));
      if (empty.length > 0) req = { ...req, mappings: [...req.mappings, ...empty] };
    }
    // Only the options the request sets override the saved mapping's (DTO fields left out are undefined).
    const requested = Object.fromEntries(
      Object.entries(req.options ?? {}).filter(([, v]) => v !== undefined),
    );
    const output = resolveOutputOptions({ ...(savedOutput ?? {}), ...requested }, templateFormat);
    const data = await this.uploads.get(req.dataFileId, user.teamId, 'Data file');
    // A column named in the request replaces that column's built-in (or saved) rules.
    const templateRules: TemplateRules = {
      ...builtInRules,
      ...saved.savedRules,
      ...(req.templateRules ?? {}),
    };
    validateMappings(templateHeaders, req.mappings);
    validateTemplateRules(templateHeaders, templateRules);
    const dataHeaders = new Set(data.info.headers);
    if (mapping && input.mappings.length === 0) {
      // The saved mapping's own pairs on a file without some of its columns: the source changed shape.
      const missing = [
        ...new Set(req.mappings.flatMap((m) => pairSources(m).columns).filter((c) => !dataHeaders.has(c))),
      ];
      if (missing.length > 0) throw new SourceChangedError(mapping.name, missing);
    }
    for (const m of req.mappings) {
      for (const s of pairSources(m).columns) {
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
      const src = pairSources(m);
      if (!m.dataColumn || !src.exclusive || src.columns.length !== 1) continue;
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
    return { templateHeaders, templateRules, templateFilename, output, mapping, required, data, req };
  }
}

/** A sync run's review record: its job payload without the rows reserved (a rerun reserves its own). */
function syncRecord(payload: ProcessCsvPayload): Omit<ProcessCsvPayload, 'maxRows'> {
  const { maxRows: _maxRows, ...record } = payload;
  return record;
}

/** Where a run came from: an API key's request, or the browser's session. */
function runSourceOf(user: AuthUser): MappingRunSource {
  return user.via === 'apiKey' ? 'api' : 'browser';
}

/** 422 SOURCE_CHANGED: `{ error, code, missing }` naming the mapped data columns the file lacks. */
export class SourceChangedError extends AppError {
  constructor(
    mappingName: string,
    readonly missing: string[],
  ) {
    const list = missing.map((c) => `"${c}"`).join(', ');
    super(
      422,
      'SOURCE_CHANGED',
      `The data file has changed shape: it has no column ${list}, which the saved mapping "${mappingName}" reads. Map the new columns (or update the saved mapping) and run it again.`,
      { missing },
    );
  }

  override getResponse(): string | object {
    return { ...(super.getResponse() as object), missing: this.missing };
  }
}

/** A review's corrected rerun replaces this sync run in the mapping's history. */
function supersedes<T extends Pick<ProcessCsvPayload, 'history'>>(record: T, started: StartedRun | null): T {
  if (!started || !record.history) return record;
  return { ...record, history: { ...record.history, supersedes: started.runId } };
}

function hasRules(r: TemplateRules): boolean {
  return Object.keys(r).length > 0;
}

/** The code a failed run is recorded with: the one its answer carries (ErrorFilter), else JOB_FAILED. */
function failureCode(err: unknown): string {
  return err instanceof AppError || isCsvEngineError(err) ? err.code : 'JOB_FAILED';
}

export { outputFilename as outputName } from '@csv-mapper/domain';

/** Same user, files, columns, mappings and options → same key → one background job. */
function requestKey(
  userId: string,
  req: ProcessRequest,
  templateHeaders: string[],
  idempotencyKey: string,
  reading: Record<string, unknown>,
): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        userId,
        idempotencyKey,
        req.dataFileId,
        req.templateFileId,
        templateHeaders,
        req.mappings,
        req.options,
        ...(req.templateRules ? [req.templateRules] : []),
        reading,
      ]),
    )
    .digest('hex');
}
