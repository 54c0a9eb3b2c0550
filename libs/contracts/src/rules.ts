import { Transform as Coerce, plainToInstance, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
  validateSync,
} from 'class-validator';

// Template column rules (issue 22): what a target system accepts in a column, checked in the same
// streaming pass as the transforms. Each failing cell is a Warning with its `rule`; results count them by
// rule. Rules travel as `templateRules` on POST /api/process, in saved mappings and in built-in templates.

export const RULE_TYPES = ['text', 'number', 'amount', 'date', 'boolean', 'email', 'url'] as const;
export type RuleType = (typeof RULE_TYPES)[number];

/** The rules a warning can name; `truncate` is the transform's "value was cut" warning. */
/** `alreadyExported`: the row was exported by an earlier run of the saved mapping (its `duplicates: "flag"`). */
export const WARNING_RULES = [
  'required',
  'type',
  'maxLength',
  'allowed',
  'unique',
  'truncate',
  'alreadyExported',
] as const;
export type WarningRule = (typeof WARNING_RULES)[number];

/** Rules of one template column. Every field is optional; an empty object checks nothing. */
export class ColumnRules {
  /** The cell must not be empty. */
  @IsOptional() @IsBoolean() required?: boolean;
  /** What a non-empty value must look like. */
  @IsOptional() @IsIn(RULE_TYPES) type?: RuleType;
  /** With type date: the pattern (YYYY YY MM M DD D and separators), e.g. MM/DD/YYYY. */
  @IsOptional() @IsString() @MaxLength(50) format?: string;
  /** At most this many user-perceived characters. */
  @IsOptional() @IsInt() @Min(1) @Max(100000) maxLength?: number;
  /** The value must be one of these (exact match; an empty cell is left to `required`). */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(500, { each: true })
  allowed?: string[];
  /** No two rows may hold the same non-empty value (checked within the file). */
  @IsOptional() @IsBoolean() unique?: boolean;
}

/** `{ [templateColumn]: ColumnRules }`. */
export type TemplateRules = Record<string, ColumnRules>;

export const MAX_RULE_COLUMNS = 1000;

/** Validates a `templateRules` map: an object of column → ColumnRules (unknown fields refused). */
export const IsTemplateRules = () =>
  ValidateBy({
    name: 'isTemplateRules',
    validator: {
      validate: (v: unknown) => templateRulesProblem(v) === null,
      defaultMessage: (args) => templateRulesProblem(args?.value) ?? 'templateRules is not valid',
    },
  });

/** Why a value is not a valid templateRules map, or null. */
export function templateRulesProblem(v: unknown): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    return 'templateRules must be an object of template column → rules';
  }
  const entries = Object.entries(v);
  if (entries.length > MAX_RULE_COLUMNS) return `templateRules may name at most ${MAX_RULE_COLUMNS} columns`;
  for (const [column, rules] of entries) {
    if (column.length > 500) return 'templateRules: a column name is longer than 500 characters';
    if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) {
      return `templateRules["${column}"] must be an object of rules`;
    }
    const errors = validateSync(plainToInstance(ColumnRules, rules), {
      whitelist: true,
      forbidNonWhitelisted: true,
    });
    if (errors.length > 0) {
      const e = errors[0];
      const why = Object.values(e.constraints ?? {})[0] ?? 'is not valid';
      return `templateRules["${column}"].${why.startsWith(e.property) ? why : `${e.property}: ${why}`}`;
    }
  }
  return null;
}

// ---- review and fix (GET /api/jobs/:id/issues, PATCH /api/jobs/:id/cells, POST /api/jobs/:id/rerun) ----

/** GET /api/jobs/:id/issues query. */
export class IssuesQuery {
  /** Only problems of this rule (`other`: problems without a rule). */
  @IsOptional() @IsIn([...WARNING_RULES, 'other']) rule?: WarningRule | 'other';
  /** Only problems of this template column. */
  @IsOptional() @IsString() @MaxLength(500) column?: string;
  /** The `nextCursor` of the previous page. */
  @IsOptional() @IsString() @MaxLength(20) cursor?: string;
  /** Problems per page, 1–500. Default 100. */
  @IsOptional()
  @Coerce(({ value }: { value: unknown }) => (typeof value === 'string' ? Number(value) : value))
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

/** One problem cell of a run, as the review grid pages them. */
export class IssueView {
  /** 1-based data row of the uploaded file (the first row after the header is 1). */
  row: number;
  /** Template column ('' for a whole-row problem such as a ragged row). */
  column: string;
  /** The rule that failed; absent for other warnings (unreadable values, ragged rows). */
  rule?: WarningRule;
  /** The cell as written to the result. */
  value: string;
  message: string;
}

export class IssuesPage {
  issues: IssueView[];
  /** Pass as `cursor` for the next page; null at the end. */
  nextCursor: string | null;
  /** Problems stored for this run (matching the filter). */
  total: number;
  /** Problems of the whole run by rule (`other` for warnings without a rule). */
  byRule: Record<string, number>;
  /** More problems were found than stored (the first 100,000 are kept). */
  truncated: boolean;
}

export const MAX_EDITS_PER_REQUEST = 5000;

export class CellEdit {
  /** 1-based data row of the uploaded file. */
  @IsInt() @Min(1) row: number;
  /** Template column. */
  @IsString() @MaxLength(500) column: string;
  /** The value the result gets in this cell (written as is: no transform runs on it). */
  @IsString() @MaxLength(100000) value: string;
}

/** PATCH /api/jobs/:id/cells: edits and row deletions added to the run's patch (later edits win). */
export class PatchCellsRequest {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_EDITS_PER_REQUEST)
  @ValidateNested({ each: true })
  @Type(() => CellEdit)
  edits: CellEdit[] = [];
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_EDITS_PER_REQUEST)
  @IsInt({ each: true })
  @Min(1, { each: true })
  deleteRows: number[] = [];
  /** Rows whose deletion is undone. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_EDITS_PER_REQUEST)
  @IsInt({ each: true })
  @Min(1, { each: true })
  restoreRows?: number[];
}

/** An edit the rules refuse: stored anyway (the user may want it), reported so the grid can mark it. */
export class EditProblem {
  row: number;
  column: string;
  rule: WarningRule;
  message: string;
}

export class PatchCellsResponse {
  /** Cells edited in the patch so far. */
  cellsEdited: number;
  /** Rows with at least one edited cell. */
  rowsEdited: number;
  rowsDeleted: number;
  /** Problems of the edits in this request, checked against the column's rules. */
  problems: EditProblem[];
}

/** What the patch changed in a corrected run (in the result and the job answer). */
export class Corrections {
  cellsEdited: number;
  rowsEdited: number;
  rowsDeleted: number;
}

/** 202 answer of POST /api/jobs/:id/rerun. */
export class RerunResponse {
  jobId: string;
  status: 'queued';
}
