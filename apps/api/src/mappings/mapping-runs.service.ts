import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  OutputOptions,
  ProcessRequest,
  type MappingRunsPage,
  type MappingRunsQuery,
  type ProcessResponse,
  type QueuedResponse,
} from '@csv-mapper/contracts';
import { RunHistoryStore } from '@csv-mapper/db';
import { VIRTUAL_TEMPLATE_PREFIX } from '@csv-mapper/domain';
import { ApiConfig } from '../config/api.config';
import type { AuthUser } from '../auth/auth-user';
import { AppError } from '../common/app-error';
import { pageOffset } from '../common/cursor';
import { ProcessingService } from '../processing/processing.service';
import { MultipartUploadReceiver } from '../uploads/multipart-upload.interceptor';
import { discardOutcome } from '../uploads/csv-storage.engine';
import type { UploadRecord } from '../uploads/upload-record';
import { UploadsService } from '../uploads/uploads.service';
import { MappingsService } from './mappings.service';

// A saved mapping in one call (issue 30): POST /api/mappings/:id/runs takes the data file (multipart
// `file`, optionally the template as `templateFile`) and runs the mapping on it exactly as POST
// /api/process with `mappingId` would; GET lists the mapping's runs (mapping_runs), newest first.

/** The multipart part that may carry the template file (else `templateFileId`, else the saved columns). */
const TEMPLATE_PART = 'templateFile';
/** The saved mapping's own template columns, as a virtual template (no template file sent). */
const SAVED_TEMPLATE = `${VIRTUAL_TEMPLATE_PREFIX}saved-mapping`;

@Injectable()
export class MappingRunsService {
  constructor(
    private readonly mappings: MappingsService,
    private readonly uploads: UploadsService,
    private readonly multipart: MultipartUploadReceiver,
    private readonly processing: ProcessingService,
    private readonly history: RunHistoryStore,
    private readonly config: ApiConfig,
  ) {}

  async run(
    user: AuthUser,
    id: string,
    req: Request,
    res: Response,
  ): Promise<ProcessResponse | QueuedResponse> {
    // Someone else's (or no) mapping: 404 before a byte of the file is stored.
    const saved = await this.mappings.get(user, id);
    const received = await this.multipart.receive(req, res, user, [TEMPLATE_PART]);
    const templatePart = received.extra?.[TEMPLATE_PART] ?? null;
    const fields = received.fields;
    const named = typeof fields.templateFileId === 'string' ? fields.templateFileId.trim() : '';
    if (!received.file) {
      await discardOutcome(templatePart);
      await this.uploads.receive(received, user, 'data'); // answers NO_FILE
    }
    // Every refusal that needs no file comes before anything is kept: the parts stored so far are dropped.
    const refuse = async (err: unknown): Promise<never> => {
      await discardOutcome(received.file);
      await discardOutcome(templatePart);
      throw err;
    };
    if (templatePart && named)
      await refuse(
        new AppError(
          400,
          'VALIDATION_FAILED',
          'Send the template either as a templateFile part or as templateFileId, not both.',
        ),
      );
    if (!templatePart && !named && saved.templateHeaders.length === 0)
      await refuse(
        new AppError(
          400,
          'TEMPLATE_FILE_REQUIRED',
          'This saved mapping holds no template columns: send the template as a templateFile part, or upload it (POST /api/upload/template) and send its id as templateFileId.',
        ),
      );
    let async = false;
    try {
      async = parseAsync(fields.async);
    } catch (err) {
      await refuse(err);
    }
    // The template first: a template that is refused (not CSV, empty…) leaves no data file behind.
    let templateFileId = named;
    if (templatePart) {
      try {
        templateFileId = (await this.uploads.receive({ file: templatePart, fields: {} }, user, 'template'))
          .id;
      } catch (err) {
        await discardOutcome(received.file);
        throw err;
      }
    }
    let data: UploadRecord;
    try {
      data = await this.uploads.receive(received, user, 'data');
    } catch (err) {
      // a template sent with this request goes with it; one uploaded before (templateFileId) stays
      if (templatePart) await this.uploads.remove(templateFileId, user.teamId).catch(() => undefined);
      throw err;
    }
    const request = Object.assign(new ProcessRequest(), {
      dataFileId: data.id,
      templateFileId: templateFileId || SAVED_TEMPLATE,
      ...(templateFileId ? {} : { templateHeaders: saved.templateHeaders }),
      mappingId: saved.id,
      mappings: [],
      options: new OutputOptions(),
      ...(async ? { async: true } : {}),
    });
    const answer = await this.processing.process(user, request);
    if ('jobId' in answer) res.status(202);
    return answer;
  }

  async list(user: AuthUser, id: string, q: MappingRunsQuery): Promise<MappingRunsPage> {
    const saved = await this.mappings.get(user, id);
    const cursor = pageOffset(q.cursor);
    return this.history.list(saved.id, user.teamId, this.config.appUrl, cursor, q.limit ?? 20);
  }
}

function parseAsync(v: unknown): boolean {
  if (v === undefined || v === '' || v === 'false' || v === false) return false;
  if (v === 'true' || v === true) return true;
  throw new AppError(400, 'VALIDATION_FAILED', 'async must be true or false.');
}
