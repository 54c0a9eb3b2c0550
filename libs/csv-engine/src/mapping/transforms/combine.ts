// The combine transform's byte path (a combine with nothing after it): the pattern's literals and the
// trimmed fields are joined in a scratch sink and written as one cell — no text is decoded. Same result
// as strings.ts combineValues (tested): a blank field is dropped with the separator before it, a
// separator's leading space after a space is dropped, the result is trimmed.
import type { RecordView } from '../../parser';
import { needsFormulaGuard, writeCell, type ByteSink } from '../../writer';
import { contentInto, type CellOut } from '../cells';
import type { ChainPlan } from '../chain';
import type { Op } from '../plan';

const isWs = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a;

export function mapCombine(out: CellOut, r: RecordView, op: Op, scratch: ByteSink): void {
  const c = op.chain as ChainPlan;
  const lits = c.litBytes;
  const cols = c.combineSrc;
  scratch.pos = 0;
  let next = -1;
  const delim = out.delim;
  /** Set when a copied byte makes the cell need quotes (then writeCell quotes and escapes it). */
  let special = false;
  for (let k = 0; k < cols.length; k++) {
    const src = cols[k];
    if (src >= r.count) continue;
    const v = contentInto(out.cv, r, src);
    let s = v.s;
    let e = v.e;
    while (s < e && isWs(v.buf[s])) s++;
    while (e > s && isWs(v.buf[e - 1])) e--;
    if (s === e) continue;
    const sep = lits[next < 0 ? 0 : next];
    let ss = 0;
    if (scratch.pos > 0 && scratch.buf[scratch.pos - 1] === 0x20 && sep[0] === 0x20) {
      while (ss < sep.length && isWs(sep[ss])) ss++;
    }
    scratch.ensure(sep.length - ss + (e - s));
    const buf = scratch.buf;
    let p = scratch.pos;
    for (let i = ss; i < sep.length; i++) {
      const b = sep[i];
      buf[p++] = b;
      if (b === 0x22 || b === delim || b === 0x0a || b === 0x0d) special = true;
    }
    const field = v.buf;
    for (let i = s; i < e; i++) {
      const b = field[i];
      buf[p++] = b;
      if (b === 0x22 || b === delim || b === 0x0a || b === 0x0d) special = true;
    }
    scratch.pos = p;
    next = k + 1;
  }
  if (next < 0) return;
  const tail = lits[lits.length - 1];
  scratch.ensure(tail.length);
  for (let i = 0; i < tail.length; i++) {
    const b = tail[i];
    scratch.buf[scratch.pos++] = b;
    if (b === 0x22 || b === delim || b === 0x0a || b === 0x0d) special = true;
  }
  let s = 0;
  let e = scratch.pos;
  while (s < e && isWs(scratch.buf[s])) s++;
  while (e > s && isWs(scratch.buf[e - 1])) e--;
  if (s === e) return;
  if (special || (out.protect && needsFormulaGuard(scratch.buf, s, e))) {
    writeCell(out.sink, scratch.buf, s, e, delim, out.protect);
    return;
  }
  out.sink.ensure(e - s);
  out.sink.bytes(scratch.buf, s, e);
}
