// Helpers shared by the engine's specs (not exported from the package).
import { Readable } from 'node:stream';

/** fast-check runs: ≥ 500 in `npm test`, FC_RUNS=10000 (or more) for the nightly/bench mode. */
export const FC_RUNS = Math.max(1, Number(process.env.FC_RUNS ?? 500));

export async function collect(stream: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(c as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** Splits bytes into chunks at the given offsets. */
export function splitAt(b: Buffer, cuts: number[]): Buffer[] {
  const sorted = [...new Set(cuts.map((c) => Math.max(0, Math.min(b.length, c))))].sort((x, y) => x - y);
  const out: Buffer[] = [];
  let last = 0;
  for (const c of sorted) {
    out.push(b.subarray(last, c));
    last = c;
  }
  out.push(b.subarray(last));
  return out;
}
