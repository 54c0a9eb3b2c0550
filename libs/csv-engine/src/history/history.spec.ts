import { createHmac, randomBytes } from 'node:crypto';
import { applyMappingToBuffer } from '../mapping';
import { runTotals } from '../output';
import { RowHmac } from './hmac';
import { bucketOf, FingerprintSet, RowHistory } from './set';

const secret = randomBytes(32);
const headers = ['Date', 'Description', 'Amount'];
const pairs = headers.map((h) => ({ templateColumn: h, dataColumn: h }));
const first =
  'Date,Description,Amount\n2026-10-01,Coffee,-3.20\n2026-10-02,Salary,2500.00\n2026-10-03,Rent,-900.00\n';
const second = 'Date,Description,Amount\n2026-10-03,Rent,-900.00\n2026-10-04,Books,-12.50\n';

/** The set a first run's collected fingerprints make (as the store loads them). */
function setOf(h: RowHistory, run = 0): FingerprintSet {
  const set = new FingerprintSet();
  for (const { bucket, count, bytes } of h.fresh.buckets()) {
    set.reserve(bucket, count);
    set.addPacked(bucket, bytes, run);
  }
  return set;
}

describe('run history', () => {
  it('RowHmac is HMAC-SHA-256 (first 64 bits) for keys and messages of every length class', () => {
    for (const klen of [0, 16, 32, 64, 65, 100]) {
      const key = randomBytes(klen);
      const h = new RowHmac(key);
      for (let n = 0; n < 200; n += 7) {
        const m = randomBytes(n + 3);
        h.fingerprint(m, 3, n + 3);
        const d = createHmac('sha256', key).update(m.subarray(3)).digest();
        expect([h.hi, h.lo]).toEqual([d.readUInt32BE(0), d.readUInt32BE(4)]);
        expect(bucketOf(h.hi)).toBe(d[0] >> 2);
      }
    }
  });

  it('a second run finds the overlapping row: skip leaves it out of bytes and written sums, flag warns, keep counts', async () => {
    const h1 = new RowHistory(secret, 'flag', null);
    await applyMappingToBuffer(Buffer.from(first), headers, pairs, { history: h1 });
    expect(h1.fresh.count).toBe(3);
    const skip = new RowHistory(secret, 'skip', setOf(h1));
    const s = await applyMappingToBuffer(Buffer.from(second), headers, pairs, {
      history: skip,
      lineEnding: '\n',
    });
    expect(s.data.toString()).toBe('Date,Description,Amount\n2026-10-04,Books,-12.50\n');
    expect(skip.alreadyExported).toBe(1);
    expect([...skip.perRun]).toEqual([[0, 1]]);
    expect(skip.fresh.count).toBe(1);
    const t = runTotals(s.stats, 2);
    expect(t).toMatchObject({ rowsRead: 2, rowsWritten: 1, rowsSkipped: 1, rowsAlreadyExported: 1 });
    expect(t.skipped).toEqual([expect.objectContaining({ reason: 'alreadyExported', rows: 1 })]);

    const flag = new RowHistory(secret, 'flag', setOf(h1), null, () => 'Exported on 1 Oct 2026 by ana');
    const f = await applyMappingToBuffer(Buffer.from(second), headers, pairs, {
      history: flag,
      lineEnding: '\n',
    });
    expect(f.data.toString()).toBe(second);
    expect(f.stats.warnings).toEqual([
      { row: 1, column: '', value: '', reason: 'Exported on 1 Oct 2026 by ana', rule: 'alreadyExported' },
    ]);
    const keep = new RowHistory(secret, 'keep', setOf(h1));
    const k = await applyMappingToBuffer(Buffer.from(second), headers, pairs, { history: keep });
    expect(k.stats.warningCount).toBe(0);
    expect(runTotals(k.stats, 2)).toMatchObject({ rowsWritten: 2, rowsAlreadyExported: 1, rowsSkipped: 0 });
  });

  it('key columns: a row with the same Date and Amount but another Description is the same row', async () => {
    const keys = ['Date', 'Amount'];
    const h1 = new RowHistory(secret, 'skip', null, keys);
    await applyMappingToBuffer(Buffer.from(first), headers, pairs, { history: h1 });
    const h2 = new RowHistory(secret, 'skip', setOf(h1), keys);
    const r = await applyMappingToBuffer(
      Buffer.from('Date,Description,Amount\n2026-10-03,"Rent, October",-900.00\n2026-10-03,Rent,-901.00\n'),
      headers,
      pairs,
      { history: h2, lineEnding: '\n' },
    );
    expect(r.data.toString()).toBe('Date,Description,Amount\n2026-10-03,Rent,-901.00\n');
    // Another team's secret: nothing matches.
    const other = new RowHistory(randomBytes(32), 'skip', setOf(h1));
    const o = await applyMappingToBuffer(Buffer.from(second), headers, pairs, { history: other });
    expect(o.stats.alreadyExported).toBe(0);
  });
});
