// What the engine reads: a Node stream, an (async) iterable of chunks, or the bytes themselves — and one
// way to iterate over any of them.
import type { Readable } from 'node:stream';

/** Anything the engine can read: a Node stream, an (async) iterable of chunks, or the bytes themselves. */
export type CsvInput =
  | Readable
  | AsyncIterable<Buffer | Uint8Array | string>
  | Iterable<Buffer | Uint8Array | string>
  | Buffer
  | Uint8Array
  | string;

/** Normalises any CsvInput to an async iterator of chunks. */
export function chunksOf(input: CsvInput): AsyncIterator<Buffer | Uint8Array | string> {
  if (typeof input === 'string' || input instanceof Uint8Array) {
    const one = [input];
    return (async function* () {
      yield* one;
    })();
  }
  if (Symbol.asyncIterator in input)
    return (input as AsyncIterable<Buffer | Uint8Array | string>)[Symbol.asyncIterator]();
  const it = (input as Iterable<Buffer | Uint8Array | string>)[Symbol.iterator]();
  return {
    next: async () => it.next(),
    return: async () => {
      it.return?.();
      return { done: true, value: undefined };
    },
  };
}

export function byteLength(c: Buffer | Uint8Array | string): number {
  return typeof c === 'string' ? Buffer.byteLength(c) : c.length;
}
