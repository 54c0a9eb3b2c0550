import type { Pool } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

// Reading many large bytea values (the run history's fingerprints): `COPY (…) TO STDOUT (FORMAT binary)`
// sends the values' bytes as they are stored, where a query's text answer would be hex or base64 to encode
// on the server and decode here (for 96 MB of fingerprints, ~0.5 s against ~0.1 s). The stream is parsed as
// it arrives: one tuple's fields are all the memory it holds.

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** One tuple of a binary COPY: its fields (null for SQL NULL), valid until the next tuple. */
export type CopyTuple = (Buffer | null)[];

/** Parses PostgreSQL's binary COPY format from chunks of any size (a chunk may hold part of a tuple). */
export class CopyBinaryParser {
  private chunks: Buffer[] = [];
  private length = 0;
  private headerRead = false;
  /** Bytes needed before the front can be parsed further (so a tuple arriving in small pieces is joined once). */
  private need = 0;
  done = false;

  constructor(private readonly onTuple: (tuple: CopyTuple) => void) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    if (this.length < this.need) return;
    for (;;) {
      if (!this.headerRead) {
        this.need = 19;
        if (this.length < 19) return;
        const head = this.peek(19);
        if (!head.subarray(0, 11).equals(SIGNATURE)) throw new Error('not a binary COPY stream');
        const ext = head.readUInt32BE(15);
        this.need = 19 + ext;
        if (this.length < this.need) return;
        this.skip(19 + ext);
        this.headerRead = true;
      }
      this.need = 2;
      if (this.done || this.length < 2) return;
      const fields = this.peek(2).readInt16BE(0);
      if (fields === -1) {
        this.skip(2);
        this.done = true;
        return;
      }
      // The whole tuple must be here: walk its field lengths without consuming.
      const size = this.tupleSize(fields);
      if (size < 0) return;
      const bytes = this.peek(size);
      this.skip(size);
      const tuple: CopyTuple = [];
      let at = 2;
      for (let i = 0; i < fields; i++) {
        const len = bytes.readInt32BE(at);
        at += 4;
        if (len < 0) tuple.push(null);
        else {
          tuple.push(bytes.subarray(at, at + len));
          at += len;
        }
      }
      this.onTuple(tuple);
    }
  }

  /**
   * The byte size of the tuple at the front (with `fields` fields), or -1 while it is incomplete (then
   * `need` says how many bytes must be here before it is worth looking again).
   */
  private tupleSize(fields: number): number {
    let size = 2;
    for (let i = 0; i < fields; i++) {
      if (this.length < size + 4) {
        this.need = size + 4;
        return -1;
      }
      const len = this.readInt32At(size);
      size += 4 + Math.max(0, len);
    }
    this.need = size;
    return this.length >= size ? size : -1;
  }

  private readInt32At(offset: number): number {
    const first = this.chunks[0];
    if (offset + 4 <= first.length) return first.readInt32BE(offset);
    return this.peek(offset + 4).readInt32BE(offset);
  }

  /** The first n buffered bytes (a view when they lie in one chunk, else joined once). */
  private peek(n: number): Buffer {
    const first = this.chunks[0];
    if (first.length >= n) return first;
    const joined = Buffer.concat(this.chunks, this.length);
    this.chunks = [joined];
    return joined;
  }

  private skip(n: number): void {
    this.length -= n;
    while (n > 0) {
      const first = this.chunks[0];
      if (first.length <= n) {
        n -= first.length;
        this.chunks.shift();
      } else {
        this.chunks[0] = first.subarray(n);
        n = 0;
      }
    }
  }
}

/**
 * The raw stream of `COPY (<select>) TO STDOUT (FORMAT binary)` on a connection of the data source's pool,
 * released when the stream ends or fails. `select` takes no parameters (COPY cannot): literals in it must
 * be quoted with quoteLiteral().
 */
export async function* copyOut(ds: DataSource, select: string): AsyncGenerator<Buffer> {
  const pool = (ds.driver as PostgresDriver).master as Pool;
  const client = await pool.connect();
  let failed: Error | undefined;
  try {
    yield* client.query(copyTo(`COPY (${select}) TO STDOUT (FORMAT binary)`)) as AsyncIterable<Buffer>;
  } catch (err) {
    failed = err as Error;
    throw err;
  } finally {
    // A connection left mid-COPY (failed, or the reader stopped early) is not handed to anyone else.
    client.release(failed);
  }
}

/**
 * Hands each tuple of the binary COPY of `select` to `onTuple` as it arrives (see copyOut). When onTuple
 * answers a promise (work it queued on the tuple's bytes), reading pauses while more than `ahead` are
 * unsettled, so a slow consumer holds a few tuples, not the whole answer; all have settled when this does.
 */
export async function copyBinaryOut(
  ds: DataSource,
  select: string,
  onTuple: (tuple: CopyTuple) => unknown,
  ahead = 2,
): Promise<void> {
  const queued: Promise<unknown>[] = [];
  const parser = new CopyBinaryParser((t) => {
    const p = onTuple(t);
    if (p instanceof Promise) {
      p.catch(() => undefined); // awaited below
      queued.push(p);
    }
  });
  for await (const chunk of copyOut(ds, select)) {
    parser.push(chunk);
    while (queued.length > ahead) await queued.shift();
  }
  if (!parser.done) throw new Error('the binary COPY stream ended early');
  await Promise.all(queued);
}

/** A SQL string literal (for COPY's query, which takes no parameters). */
export function quoteLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
