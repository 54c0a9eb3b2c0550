// The optional native row-fingerprint addon (libs/csv-engine/native, built by `npm install`'s postinstall
// with node-gyp). When it is not built, or CSVM_NATIVE_FINGERPRINTS=0, `nativeFingerprints` is null and
// RowHistory hashes with hmac.ts: the same fingerprints, about ten times slower per row.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface NativeFingerprints {
  /** The key's inner and outer pad states, made once per run. */
  prepareKey(key: Uint8Array): Uint8Array;
  /**
   * Truncated HMAC-SHA-256 of `rows` rows of `buf` into out[2r] (hi), out[2r + 1] (lo). `fieldsPerRow` 0:
   * row r is buf[spans[2r], spans[2r + 1]); k > 0: row r is k fields at spans[2(rk + j)], each fed as a
   * 4-byte big-endian length then its bytes.
   */
  hmacSpans(
    key: Uint8Array,
    buf: Uint8Array,
    spans: Int32Array,
    fieldsPerRow: number,
    rows: number,
    out: Uint32Array,
  ): void;
  /** FingerprintSet.addPacked's loop: answers how many fingerprints were new. */
  insertPacked(
    words: Uint32Array,
    runs: Uint8Array | Uint16Array,
    bytes: Uint8Array,
    run: number,
    homeBits: number,
  ): number;
  /** FingerprintSet.find for n fingerprints (hi, lo pairs in fps) into out (run index or -1). */
  lookupMany(
    words: readonly (Uint32Array | null)[],
    runs: readonly (Uint8Array | Uint16Array | null)[],
    fps: Uint32Array,
    n: number,
    out: Int32Array,
    homeBits: number,
  ): void;
  /**
   * The work of hmacSpans, insertPacked (insertManyAsync: several parts of one bucket) and lookupMany on
   * libuv's thread pool, so the main thread goes on mapping: each answers a Promise, and its typed arrays
   * are held, and must not be changed, until it settles. Absent in an older build.
   */
  hmacSpansAsync?(
    key: Uint8Array,
    buf: Uint8Array,
    spans: Int32Array,
    fieldsPerRow: number,
    rows: number,
    out: Uint32Array,
  ): Promise<void>;
  insertManyAsync?(
    words: Uint32Array,
    runs: Uint8Array | Uint16Array,
    parts: readonly Uint8Array[],
    partRuns: Int32Array,
    homeBits: number,
  ): Promise<number>;
  lookupManyAsync?(
    words: readonly (Uint32Array | null)[],
    runs: readonly (Uint8Array | Uint16Array | null)[],
    fps: Uint32Array,
    n: number,
    out: Int32Array,
    homeBits: number,
  ): Promise<void>;
}

function candidates(): string[] {
  const rel = join('native', 'build', 'Release', 'fingerprints.node');
  const out: string[] = [];
  try {
    out.push(join(dirname(require.resolve('@csv-mapper/csv-engine/package.json')), rel));
  } catch {
    // not resolvable as a package here (a bundle): the paths below
  }
  // src/history (ts) or dist/libs/csv-engine/src/history (built): two and four levels up.
  out.push(
    join(__dirname, '..', '..', rel),
    join(__dirname, '..', '..', '..', '..', '..', 'libs', 'csv-engine', rel),
  );
  return out;
}

function load(): NativeFingerprints | null {
  if (process.env.CSVM_NATIVE_FINGERPRINTS === '0') return null;
  for (const file of candidates()) {
    if (!existsSync(file)) continue;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(file) as Partial<NativeFingerprints>;
      // An older build (fewer functions) is not used: the JavaScript paths are.
      const complete =
        typeof mod.prepareKey === 'function' &&
        typeof mod.hmacSpans === 'function' &&
        typeof mod.insertPacked === 'function' &&
        typeof mod.lookupMany === 'function';
      if (!complete) return null;
      const native = mod as NativeFingerprints;
      // CSVM_NATIVE_ASYNC=0: the native work stays on the main thread (for the bench's comparison).
      const async =
        typeof native.hmacSpansAsync === 'function' &&
        typeof native.insertManyAsync === 'function' &&
        typeof native.lookupManyAsync === 'function';
      if (async && process.env.CSVM_NATIVE_ASYNC !== '0') return limited(native);
      const { prepareKey, hmacSpans, insertPacked, lookupMany } = native;
      return { prepareKey, hmacSpans, insertPacked, lookupMany };
    } catch {
      return null; // built for another node (ABI): the JavaScript HMAC
    }
  }
  return null;
}

/**
 * libuv's thread pool (4 threads by default) also reads and writes files: with every thread hashing, a
 * run's next input chunk would wait behind its own fingerprints. At most this many of our calls are in
 * the pool at once; the rest wait their turn here, in call order.
 */
const POOL_SHARE = 2;

function limited(native: NativeFingerprints): NativeFingerprints {
  let running = 0;
  const waiting: Array<() => void> = [];
  const turn = <T>(work: () => Promise<T>): Promise<T> => {
    const go = (): Promise<T> => {
      running++;
      let p: Promise<T>;
      try {
        p = work();
      } catch (err) {
        p = Promise.reject(err as Error);
      }
      const next = () => {
        running--;
        waiting.shift()?.();
      };
      p.then(next, next);
      return p;
    };
    if (running < POOL_SHARE) return go();
    return new Promise<T>((resolve, reject) => waiting.push(() => go().then(resolve, reject)));
  };
  const { hmacSpansAsync, insertManyAsync, lookupManyAsync } = native as Required<NativeFingerprints>;
  return {
    prepareKey: native.prepareKey,
    hmacSpans: native.hmacSpans,
    insertPacked: native.insertPacked,
    lookupMany: native.lookupMany,
    hmacSpansAsync: (...a) => turn(() => hmacSpansAsync(...a)),
    insertManyAsync: (...a) => turn(() => insertManyAsync(...a)),
    lookupManyAsync: (...a) => turn(() => lookupManyAsync(...a)),
  };
}

export const nativeFingerprints: NativeFingerprints | null = load();
