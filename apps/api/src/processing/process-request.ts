import { z } from 'zod';
import type { MappingPair, Transform } from '@csv-mapper/csv-engine';
import { AppError } from '../common/app-error';

// The process/preview request (spec §3 plus optional transforms and output options). Transforms are shape-
// checked here loosely and fully by the engine, whose messages name the column and what to fix.

export const VIRTUAL_TEMPLATE_PREFIX = 'virtual-template-';

const pairSchema = z.object({
  templateColumn: z.string().max(500),
  dataColumn: z.string().max(500).default(''),
  transform: z.looseObject({ kind: z.string() }).optional(),
});

export const mappingsSchema = z.array(pairSchema).max(1000);

const schema = z.object({
  templateFileId: z.string().max(200).optional().nullable(),
  dataFileId: z.string().max(200).optional().nullable(),
  mappings: mappingsSchema.default([]),
  /** A saved mapping to run (its pairs are used when `mappings` is empty); named in webhook events. */
  mappingId: z.string().max(100).optional().nullable(),
  templateHeaders: z.array(z.string().max(500)).max(1000).optional(),
  async: z.boolean().optional(),
  options: z
    .object({
      formulaProtection: z.boolean().optional(),
      bom: z.boolean().optional(),
      delimiter: z.enum([',', ';', '\t', '|']).optional(),
      lineEnding: z.enum(['\r\n', '\n']).optional(),
    })
    .optional(),
});

export interface ProcessRequest {
  templateFileId: string;
  dataFileId: string;
  mappings: MappingPair[];
  mappingId?: string;
  templateHeaders?: string[];
  async?: boolean;
  options: {
    formulaProtection?: boolean;
    bom?: boolean;
    delimiter?: ',' | ';' | '\t' | '|';
    lineEnding?: '\r\n' | '\n';
  };
}

export function parseProcessRequest(body: unknown): ProcessRequest {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(
      400,
      'VALIDATION_FAILED',
      `Invalid request: ${issue.path.join('.') || 'body'} ${issue.message.toLowerCase()}.`,
      parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  }
  const v = parsed.data;
  if (!v.templateFileId || !v.dataFileId) {
    throw new AppError(400, 'MISSING_FILES', 'Please upload both template and data files');
  }
  return {
    templateFileId: v.templateFileId,
    dataFileId: v.dataFileId,
    mappings: v.mappings.map((m) => ({
      templateColumn: m.templateColumn,
      dataColumn: m.dataColumn,
      ...(m.transform ? { transform: m.transform as unknown as Transform } : {}),
    })),
    ...(v.mappingId ? { mappingId: v.mappingId } : {}),
    templateHeaders: v.templateHeaders,
    async: v.async,
    options: v.options ?? {},
  };
}
