// What the suggestion tests read from POST /api/mappings/suggest, and how they send it back.

/** One pair of the answer's `mappings`. */
export interface Suggested {
  templateColumn: string;
  dataColumn: string;
  transform?: unknown;
  empty?: boolean;
  confidence: number;
  reason: string;
}

/** The pairs as POST /api/process takes them: the suggestion without confidence and reason. */
export const asPairs = (mappings: Suggested[]) =>
  mappings.map(({ confidence: _c, reason: _r, ...pair }) => pair);

/** The pairs by template column. */
export const byColumn = (mappings: Suggested[]) => new Map(mappings.map((m) => [m.templateColumn, m]));
