// Stats of the parallel mode's blocks: the worker hands over what it counted for each block and starts
// again from zero; the main thread adds the block to its run, renumbering the block's warnings (rows,
// and the lines of ragged-row warnings) to their place in the file.
import type { BlockStats } from '../parallel';
import type { ApplyStats } from '../types';
import type { Op } from './plan';
import { mergeTotals, takeTotals } from './totals';

/** The ragged-row warning (written by the row loop, rewritten here with the line in the whole file). */
export function raggedReason(found: number, expected: number, line: number): string {
  return `Row has ${found} field${found === 1 ? '' : 's'}, expected ${expected} (line ${line}); ${
    found < expected ? 'missing fields left empty' : 'extra fields dropped'
  }`;
}

/**
 * Worker side: the block's stats, then zero. `ragged`: for each ragged-row warning kept, [index in
 * warnings, fields found, line in block].
 */
export function takeBlockStats(st: ApplyStats, ops: readonly Op[], ragged: number[]): BlockStats {
  const totals = takeTotals(ops);
  const block: BlockStats = {
    rowsIn: st.rowsIn,
    rowsOut: st.rowsOut,
    warnings: st.warnings,
    ragged,
    warningCount: st.warningCount,
    requiredMissing: st.requiredMissing,
    raggedRows: st.raggedRows,
    unmappableCharacters: st.unmappableCharacters,
    totals,
    warningsByRule: st.warningsByRule,
  };
  st.warningsByRule = {};
  st.rowsIn = 0;
  st.rowsOut = 0;
  st.warnings = [];
  st.warningCount = 0;
  st.requiredMissing = 0;
  st.raggedRows = 0;
  st.unmappableCharacters = 0;
  return block;
}

/**
 * Main side: adds a block the worker mapped. Its rows follow data row `rowBase`; its first line is
 * `lineBase`; `expected`: the header's field count.
 */
export function mergeBlockStats(
  st: ApplyStats,
  ops: readonly Op[],
  b: BlockStats,
  rowBase: number,
  lineBase: number,
  expected: number,
  maxWarnings: number,
): void {
  for (let k = 0; k < b.ragged.length; k += 3) {
    b.warnings[b.ragged[k]].reason = raggedReason(b.ragged[k + 1], expected, lineBase + b.ragged[k + 2] - 1);
  }
  for (const w of b.warnings) {
    if (st.warnings.length >= maxWarnings) break;
    w.row += rowBase;
    st.warnings.push(w);
  }
  st.rowsIn += b.rowsIn;
  st.rowsOut += b.rowsOut;
  st.warningCount += b.warningCount;
  st.requiredMissing += b.requiredMissing;
  st.raggedRows += b.raggedRows;
  st.unmappableCharacters += b.unmappableCharacters;
  for (const [rule, n] of Object.entries(b.warningsByRule))
    st.warningsByRule[rule] = (st.warningsByRule[rule] ?? 0) + n;
  mergeTotals(ops, b.totals);
}
