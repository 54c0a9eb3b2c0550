// The suggester's public shapes: what it is asked (SuggestInput) and what it answers (ColumnSuggestion,
// SuggestedTransform).

/**
 * A transform as the engine's column inference suggests it (structurally the contract's `Transform`; this
 * library stays free of imports). A `debitCredit` one names the two columns it reads.
 */
export type SuggestedTransform =
  | { kind: 'date'; input?: string; output: string }
  | {
      kind: 'number';
      decimalSeparator?: 'auto' | '.' | ',';
      decimals?: number;
      sign?: SignFromColumn;
      invert?: boolean;
    }
  | {
      kind: 'amount';
      decimals?: number;
      negative?: 'minus' | 'parentheses';
      decimalSeparator?: 'auto' | '.' | ',';
      sign?: SignFromColumn;
      invert?: boolean;
    }
  | { kind: 'boolean'; output: [string, string] }
  | {
      kind: 'debitCredit';
      debitColumn: string;
      creditColumn: string;
      sign?: 'creditPositive' | 'debitPositive';
      decimals?: number;
    }
  | { kind: 'constant'; value: string }
  | { kind: 'combine'; pattern: string }
  | { kind: 'coalesce'; columns: string[] }
  | { kind: 'trim' | 'upper' | 'lower' | 'slug' }
  | { kind: 'truncate'; length: number };

/** A direction column that gives an amount its sign (rows whose cell is one of `negative` are money out). */
export interface SignFromColumn {
  column: string;
  negative: string[];
}

export interface SuggestInput {
  /** The template's columns, in order. */
  templateColumns: readonly string[];
  /** A built-in template's id when the template is (or was recognised as) one: its columns' required flags,
   *  default transforms and rules weigh in (libs/domain/src/templates.ts). */
  builtInTemplateId?: string;
  /** Rules per template column (the contract's ColumnRules shape: type, required, allowed …), e.g. templateRules. */
  templateRules?: Record<string, { type?: string; required?: boolean; allowed?: string[]; format?: string }>;
  /** The data file's columns (as the upload answered them) and up to 200 sample values per column. */
  dataColumns: readonly string[];
  samples: Record<string, readonly string[]>;
  /** The upload answer's columns[].inferred (date/amount/number/boolean/debitCredit, amount with sign …). */
  inferred: Record<string, SuggestedTransform | null | undefined>;
}

export interface ColumnSuggestion {
  templateColumn: string;
  /** '' when the transform reads its own columns (combine, coalesce, debitCredit) or when empty. */
  dataColumn: string;
  transform?: SuggestedTransform | SuggestedTransform[];
  /** Leave the template column empty on purpose (a not-required column nothing matched). */
  empty?: true;
  /** 0–1. */
  confidence: number;
  /** One short sentence for people, e.g. "'Betrag' means Amount (German); its values are amounts with a decimal comma." */
  reason: string;
}
