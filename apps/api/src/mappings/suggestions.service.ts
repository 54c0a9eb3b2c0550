import { Injectable, type OnModuleInit } from '@nestjs/common';
import { inferColumnTransforms, previewMapping } from '@csv-mapper/csv-engine';
import {
  findBuiltInTemplate,
  prepareSuggester,
  suggestColumnMappings,
  templateHeaders as builtInHeaders,
  templateRulesOf,
  type SuggestedTransform,
} from '@csv-mapper/domain';
import type {
  SuggestMappingsRequest,
  SuggestMappingsResponse,
  SuggestedMapping,
  TemplateRules,
} from '@csv-mapper/contracts';
import type { AuthUser } from '../auth/auth-user';
import { AppError } from '../common/app-error';
import { UploadsService } from '../uploads/uploads.service';
import { recogniseBuiltInTemplate } from './recognised-template';

// POST /api/mappings/suggest (issue 27): which data column feeds which template column, worked out on the
// server from the stored uploads — their headers and up to 200 sample rows of the data file, streamed from
// the store (the rest of the file is never read) — by the one suggester in libs/domain.

/** First transforms that read their own columns, so their pair needs no dataColumn. */
const OWN_COLUMNS = new Set(['constant', 'debitCredit', 'combine', 'coalesce']);

function readsOwnColumns(t: SuggestedTransform | SuggestedTransform[] | undefined): boolean {
  const first = Array.isArray(t) ? t[0] : t;
  return first !== undefined && OWN_COLUMNS.has(first.kind);
}

/** Data rows read for the suggestion (the upload's inference reads as many). */
export const SUGGEST_SAMPLE_ROWS = 200;

@Injectable()
export class SuggestionsService implements OnModuleInit {
  constructor(private readonly uploads: UploadsService) {}

  /** The lexicon's index is built at boot (~0.1 s), not in the first person's request. */
  onModuleInit(): void {
    prepareSuggester();
  }

  async suggest(user: AuthUser, req: SuggestMappingsRequest): Promise<SuggestMappingsResponse> {
    const template = await this.template(user, req);
    const data = await this.uploads.get(req.dataFileId, user.teamId, 'Data file');
    const dataColumns = data.info.headers;
    const rows = await this.sampleRows(user, req.dataFileId, dataColumns);
    const samples: Record<string, string[]> = {};
    dataColumns.forEach((h, k) => (samples[h] = rows.map((r) => r[k] ?? '')));
    const inferred: Record<string, SuggestedTransform | null> = {};
    // What the upload inferred from the same first rows (older uploads: inferred again here).
    const kept = data.info.inferred?.length === dataColumns.length ? data.info.inferred : null;
    (kept ?? inferColumnTransforms(dataColumns, rows)).forEach(
      (t, k) => (inferred[dataColumns[k]] = t as SuggestedTransform | null),
    );
    const result = suggestColumnMappings({
      templateColumns: template.columns,
      ...(template.builtInId ? { builtInTemplateId: template.builtInId } : {}),
      ...(template.rules ? { templateRules: template.rules } : {}),
      dataColumns,
      samples,
      inferred,
    });
    // `mappings` must run as it is: a pair that reads no column (and is not left empty) is no suggestion.
    const runnable = result.mappings.filter((m) => m.empty || m.dataColumn || readsOwnColumns(m.transform));
    const dropped = result.mappings.filter((m) => !runnable.includes(m)).map((m) => m.templateColumn);
    const mappings: SuggestedMapping[] = runnable.map((m) => ({
      templateColumn: m.templateColumn,
      dataColumn: m.empty ? '' : m.dataColumn,
      ...(m.transform !== undefined && !m.empty ? { transform: m.transform } : {}),
      ...(m.empty ? { empty: true } : {}),
      confidence: m.confidence,
      reason: m.reason,
    }));
    return {
      mappings,
      unmatched: template.columns.filter((c) => result.unmatched.includes(c) || dropped.includes(c)),
      ...(template.builtInId ? { builtInTemplateId: template.builtInId } : {}),
    };
  }

  /** The template's columns, and the built-in it is (chosen, or recognised from an upload's headers). */
  private async template(
    user: AuthUser,
    req: SuggestMappingsRequest,
  ): Promise<{ columns: string[]; builtInId?: string; rules?: TemplateRules }> {
    if ((req.templateFileId === undefined) === (req.templateId === undefined)) {
      throw new AppError(
        400,
        'MISSING_FILES',
        'Send dataFileId with either templateFileId (an uploaded template) or templateId (a built-in template), not both.',
      );
    }
    if (req.templateId !== undefined) {
      const builtIn = findBuiltInTemplate(req.templateId);
      if (!builtIn) {
        throw new AppError(
          404,
          'NOT_FOUND',
          `There is no built-in template "${req.templateId}". GET /api/templates lists their ids.`,
        );
      }
      return {
        columns: builtInHeaders(builtIn),
        builtInId: builtIn.id,
        rules: templateRulesOf(builtIn) as TemplateRules,
      };
    }
    const uploaded = await this.uploads.get(req.templateFileId as string, user.teamId, 'Template file');
    const columns = uploaded.info.headers;
    const builtIn = recogniseBuiltInTemplate(columns);
    if (!builtIn) return { columns };
    return { columns, builtInId: builtIn.id, rules: templateRulesOf(builtIn) as TemplateRules };
  }

  /** Up to SUGGEST_SAMPLE_ROWS data rows as text, read as the upload is read (encoding, header row, sheet). */
  private async sampleRows(user: AuthUser, dataFileId: string, headers: string[]): Promise<string[][]> {
    const { input, read } = await this.uploads.openSource(dataFileId, user.teamId, 'Data file');
    // Every column copied as it stands: the preview stops reading once it has the rows.
    const identity = headers.map((h) => ({ templateColumn: h, dataColumn: h }));
    const { rows } = await previewMapping(input, headers, identity, {
      input: read,
      rows: SUGGEST_SAMPLE_ROWS,
      formulaProtection: false,
      inferenceRows: 0,
    });
    return rows;
  }
}
