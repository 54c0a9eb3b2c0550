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
      return complete ? (mod as NativeFingerprints) : null;
    } catch {
      return null; // built for another node (ABI): the JavaScript HMAC
    }
  }
  return null;
}

export const nativeFingerprints: NativeFingerprints | null = load();
