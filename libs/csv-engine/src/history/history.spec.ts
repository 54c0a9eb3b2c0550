import { createHmac, randomBytes } from 'node:crypto';
import { applyMapping, applyMappingToBuffer } from '../mapping';
import type { ApplyStats } from '../types';
import { runTotals } from '../output';
import { RowHmac } from './hmac';
import { nativeFingerprints } from './native';
import { BUCKETS, bucketOf, FingerprintSet, RowHistory } from './set';

const secret = randomBytes(32);
/** The addon with its work kept on the main thread (as CSVM_NATIVE_ASYNC=0 loads it). */
const nativeSync = nativeFingerprints && {
  prepareKey: nativeFingerprints.prepareKey,
  hmacSpans: nativeFingerprints.hmacSpans,
  insertPacked: nativeFingerprints.insertPacked,
  lookupMany: nativeFingerprints.lookupMany,
};
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

  it('the native addon (built by postinstall) gives the same fingerprints as node:crypto, whole rows and key fields', () => {
    expect(nativeFingerprints).not.toBeNull();
    const native = nativeFingerprints!;
    for (const klen of [0, 32, 64, 65, 100]) {
      const key = randomBytes(klen);
      const nkey = native.prepareKey(key);
      const buf = randomBytes(60_000);
      // Rows of every length from 0 to 200 bytes: every padding case (one block or two, 55/56, 63/64,
      // 119/120 …) and rows with whole blocks of their own.
      const rows = 201;
      const spans = new Int32Array(2 * rows);
      for (let r = 0; r < rows; r++) {
        spans[2 * r] = r * 211;
        spans[2 * r + 1] = r * 211 + r;
      }
      const out = new Uint32Array(2 * rows);
      native.hmacSpans(nkey, buf, spans, 0, rows, out);
      for (let r = 0; r < rows; r++) {
        const d = createHmac('sha256', key)
          .update(buf.subarray(spans[2 * r], spans[2 * r + 1]))
          .digest();
        expect([out[2 * r], out[2 * r + 1]]).toEqual([d.readUInt32BE(0), d.readUInt32BE(4)]);
      }
      // Two fields per row, each a 4-byte big-endian length then its bytes (what RowHmac.field feeds).
      native.hmacSpans(nkey, buf, spans, 2, 100, out);
      const js = new RowHmac(key);
      for (let r = 0; r < 100; r++) {
        js.start();
        js.field(buf, spans[4 * r], spans[4 * r + 1]);
        js.field(buf, spans[4 * r + 2], spans[4 * r + 3]);
        js.finish();
        expect([out[2 * r], out[2 * r + 1]]).toEqual([js.hi, js.lo]);
      }
    }
    expect(() =>
      native.hmacSpans(
        native.prepareKey(secret),
        Buffer.alloc(10),
        Int32Array.of(0, 11),
        0,
        1,
        new Uint32Array(2),
      ),
    ).toThrow(/outside the buffer/);
  });

  it('over many output chunks, native (on the thread pool or not) and JavaScript fingerprints give the same runs: bytes, warnings in row order, counts', async () => {
    const rows = (from: number, to: number) =>
      Array.from(
        { length: to - from },
        (_, i) =>
          `2026-10-${String(((from + i) % 28) + 1).padStart(2, '0')},Item ${from + i},${(from + i) % 7 === 0 ? '' : `${from + i}.50`}`,
      );
    const file = (lines: string[]) => Buffer.from(`Date,Description,Amount\n${lines.join('\n')}\n`);
    const firstRows = rows(0, 40_000);
    // The second file repeats rows 30,000–39,999 of the first, then 20,000 new ones.
    const secondRows = [...rows(30_000, 40_000), ...rows(40_000, 60_000)];
    const required = { required: ['Amount'], maxWarnings: 100_000, lineEnding: '\n' as const };
    const outcomes: Array<{
      native: string;
      mode: string;
      data: Buffer;
      warnings: ApplyStats['warnings'];
      seen: number;
      fresh: number;
    }> = [];
    expect(nativeFingerprints?.hmacSpansAsync).toBeDefined();
    const kinds = [
      ['pool', nativeFingerprints],
      ['main thread', nativeSync],
      ['JavaScript', null],
    ] as const;
    for (const [kind, native] of kinds) {
      const h1 = new RowHistory(secret, 'keep', null, null, undefined, native);
      await applyMappingToBuffer(file(firstRows), headers, pairs, { history: h1 });
      expect(h1.fresh.count).toBe(40_000);
      for (const mode of ['flag', 'skip', 'keep'] as const) {
        const h = new RowHistory(secret, mode, setOf(h1), null, () => 'before', native);
        const r = await applyMappingToBuffer(file(secondRows), headers, pairs, { history: h, ...required });
        outcomes.push({
          native: kind,
          mode,
          data: r.data,
          warnings: r.stats.warnings,
          seen: h.alreadyExported,
          fresh: h.fresh.count,
        });
      }
    }
    const byMode = (mode: string) => outcomes.filter((o) => o.mode === mode);
    for (const mode of ['flag', 'skip', 'keep']) {
      const [pool, main, j] = byMode(mode);
      expect([pool.native, main.native, j.native]).toEqual(['pool', 'main thread', 'JavaScript']);
      for (const n of [pool, main]) {
        expect(n.data.equals(j.data)).toBe(true);
        expect(n.warnings).toEqual(j.warnings);
        expect([n.seen, n.fresh]).toEqual([10_000, 20_000]);
      }
      expect([j.seen, j.fresh]).toEqual([10_000, 20_000]);
    }
    const flag = byMode('flag')[0];
    // Rows 1–10,000 were exported before; every 7th source row lacks its required Amount.
    const expected = secondRows.flatMap((line, i) => {
      const w: Array<{ row: number; rule: string }> = [];
      if (line.endsWith(',')) w.push({ row: i + 1, rule: 'required' });
      if (i < 10_000) w.push({ row: i + 1, rule: 'alreadyExported' });
      return w;
    });
    expect(flag.warnings.map((w) => ({ row: w.row, rule: w.rule }))).toEqual(expected);
    expect(byMode('skip')[0].data.toString().split('\n').length).toBe(20_000 + 2);
  });

  it('native (at once or on the thread pool) and JavaScript tables hold the same fingerprints in the same slots', async () => {
    const parts = [randomBytes(8 * 5000), randomBytes(8 * 5000)];
    // Duplicates across runs and a zero `lo` (stored as 1).
    parts[1].set(parts[0].subarray(0, 800), 0);
    parts[1].fill(0, 812, 816);
    const probe = [...parts, randomBytes(8 * 2000)];
    const sets = [nativeFingerprints, null].map((native) => {
      const set = new FingerprintSet(12, native);
      for (let b = 0; b < BUCKETS; b++) set.reserve(b, 10_000 / BUCKETS + 200);
      parts.forEach((p, run) => {
        for (let b = 0; b < BUCKETS; b++) {
          const mine = [];
          for (let i = 0; i < p.length; i += 8) if (p[i] >> 2 === b) mine.push(p.subarray(i, i + 8));
          set.addPacked(b, Buffer.concat(mine), run);
        }
      });
      return set;
    });
    // The same parts a bucket at a time on the thread pool (as the store loads them).
    const pooled = new FingerprintSet(12, nativeFingerprints);
    for (let b = 0; b < BUCKETS; b++) pooled.reserve(b, 10_000 / BUCKETS + 200);
    const queued: Promise<void>[] = [];
    for (let b = 0; b < BUCKETS; b++) {
      const mine = parts.map((p) => {
        const own = [];
        for (let i = 0; i < p.length; i += 8) if (p[i] >> 2 === b) own.push(p.subarray(i, i + 8));
        return Buffer.concat(own);
      });
      queued.push(pooled.addBucketLater(b, mine, [0, 1]));
    }
    await Promise.all(queued);
    await pooled.added();
    expect(sets[0].size).toBe(sets[1].size);
    expect(pooled.size).toBe(sets[1].size);
    expect(sets[0].size).toBe(10_000 - 100);
    for (const p of probe)
      for (let i = 0; i < p.length; i += 8) {
        const [hi, lo] = [p.readUInt32BE(i), p.readUInt32BE(i + 4)];
        expect(sets[0].find(hi, lo)).toBe(sets[1].find(hi, lo));
      }
    // Many at once (the native lookups overlap their reads) answer as find() does.
    const all = Buffer.concat(probe);
    const fps = new Uint32Array(all.length / 4);
    for (let i = 0; i < fps.length; i++) fps[i] = all.readUInt32BE(i * 4);
    const [a, b] = [new Int32Array(fps.length / 2), new Int32Array(fps.length / 2)];
    sets[0].findMany(fps, a.length, a);
    sets[1].findMany(fps, b.length, b);
    expect([...a]).toEqual([...b]);
    const c = new Int32Array(fps.length / 2);
    await pooled.findManyLater(fps, c.length, c);
    expect([...c]).toEqual([...b]);
    expect(a.filter((r) => r >= 0).length).toBe(10_000);
    expect(sets[0].find(parts[1].readUInt32BE(0), parts[1].readUInt32BE(4))).toBe(0); // the first run keeps it
    expect(sets[0].find(parts[1].readUInt32BE(808), 0)).toBe(1);
  });

  it('earlier fingerprints that arrive while the run is going give the same run; a failed load fails it', async () => {
    const lines = Array.from(
      { length: 30_000 },
      (_, i) => `2026-10-${String((i % 28) + 1).padStart(2, '0')},Row ${i},${i}.00`,
    );
    const file = (from: number, to: number) =>
      Buffer.from(`Date,Description,Amount\n${lines.slice(from, to).join('\n')}\n`);
    const h1 = new RowHistory(secret, 'keep', null);
    await applyMappingToBuffer(file(0, 20_000), headers, pairs, { history: h1 });
    const later = (ms: number) => new Promise<FingerprintSet>((res) => setTimeout(() => res(setOf(h1)), ms));
    for (const mode of ['flag', 'keep', 'skip'] as const) {
      const now = new RowHistory(secret, mode, setOf(h1), null, () => 'before');
      const a = await applyMappingToBuffer(file(10_000, 30_000), headers, pairs, {
        history: now,
        maxWarnings: 20_000,
      });
      const deferred = new RowHistory(secret, mode, null, null, () => 'before');
      deferred.loadLater(later(30));
      const b = await applyMappingToBuffer(file(10_000, 30_000), headers, pairs, {
        history: deferred,
        maxWarnings: 20_000,
      });
      expect(b.data.equals(a.data)).toBe(true);
      expect(b.stats.warnings).toEqual(a.stats.warnings);
      expect([b.stats.alreadyExported, deferred.fresh.count]).toEqual([10_000, 10_000]);
    }
    const failing = new RowHistory(secret, 'flag', null);
    failing.loadLater(Promise.reject(new Error('the database went away')));
    const { output, stats } = applyMapping(file(0, 100), headers, pairs, { history: failing });
    const streamError = new Promise((res) => output.on('error', res));
    output.resume();
    await expect(stats).rejects.toThrow('the database went away');
    await expect(streamError).resolves.toThrow('the database went away');
  });

  it('skip: a row left out takes its rule warnings and counts with it; the rows written keep theirs', async () => {
    const before = 'Date,Description,Amount\n2026-10-01,Coffee,\n2026-10-02,Salary,2500.00\n';
    const h1 = new RowHistory(secret, 'keep', null);
    await applyMappingToBuffer(Buffer.from(before), headers, pairs, { history: h1 });
    // Row 1 (no Amount, ragged) was exported before; row 2 is new and has the same problems.
    const next = 'Date,Description,Amount\n2026-10-01,Coffee,\n2026-10-05,Books,,x\n';
    const skip = new RowHistory(secret, 'skip', setOf(h1));
    const r = await applyMappingToBuffer(Buffer.from(next), headers, pairs, {
      history: skip,
      required: ['Amount'],
      lineEnding: '\n',
    });
    expect(r.data.toString()).toBe('Date,Description,Amount\n2026-10-05,Books,\n');
    expect(r.stats.warnings.map((w) => w.row)).toEqual([2, 2]);
    expect(r.stats).toMatchObject({ warningCount: 2, requiredMissing: 1, raggedRows: 1, alreadyExported: 1 });
    expect(r.stats.warningsByRule).toEqual({ required: 1, other: 1 }); // other: the ragged row 2
  });
});
