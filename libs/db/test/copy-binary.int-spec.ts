import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '@csv-mapper/db';
import { copyBinaryOut, CopyBinaryParser, copyOut, quoteLiteral, type CopyTuple } from '../src/copy-binary';

// The run history reads its fingerprints with a binary COPY (copy-binary.ts): the same bytes a plain
// query answers, however the stream is cut, NULLs kept, and a failed COPY rejects and frees its connection.
describe('binary COPY reader (real Postgres)', () => {
  let ds: DataSource;
  const table = `copy_probe_${randomBytes(4).toString('hex')}`;
  const values = [randomBytes(200_000), Buffer.alloc(0), null, randomBytes(7), randomBytes(70_000)];

  beforeAll(async () => {
    ds = new DataSource(buildDataSourceOptions(process.env.DATABASE_URL as string, { poolSize: 2 }));
    await ds.initialize();
    await ds.query(`CREATE TABLE ${table} (n int4 NOT NULL, label text, bytes bytea)`);
    for (const [i, v] of values.entries())
      await ds.query(`INSERT INTO ${table} (n, label, bytes) VALUES ($1, $2, $3)`, [i, `row ${i}'s`, v]);
  });
  afterAll(async () => {
    await ds.query(`DROP TABLE IF EXISTS ${table}`);
    await ds.destroy();
  });

  const select = `SELECT n, label, bytes FROM ${table} ORDER BY n`;
  // Bytes as base64 text: Jest compares long strings at once, Buffers element by element.
  const plain = (t: CopyTuple) => [
    t[0]?.readInt32BE(0),
    t[1]?.toString('utf8'),
    t[2]?.toString('base64') ?? null,
  ];
  const expected = values.map((v, i) => [i, `row ${i}'s`, v?.toString('base64') ?? null]);

  it('answers the stored bytes of every row, in order, NULL as null', async () => {
    const got: unknown[] = [];
    await copyBinaryOut(ds, select, (t) => got.push(plain(t)));
    expect(got).toEqual(expected);
  });

  it('parses the same tuples whatever the chunk boundaries', async () => {
    const parts: Buffer[] = [];
    for await (const chunk of copyOut(ds, select)) parts.push(Buffer.from(chunk));
    const raw = Buffer.concat(parts);
    for (const size of [1, 3, 4099, raw.length]) {
      const seen: unknown[] = [];
      const parser = new CopyBinaryParser((t) => seen.push(plain(t)));
      for (let at = 0; at < raw.length; at += size) parser.push(raw.subarray(at, at + size));
      expect(parser.done).toBe(true);
      expect(seen).toEqual(expected);
    }
  });

  it('rejects a failing query and leaves the pool usable', async () => {
    await expect(copyBinaryOut(ds, `SELECT 1 / (n - n) FROM ${table}`, () => undefined)).rejects.toThrow(
      /division by zero/,
    );
    const rows = (await ds.query(`SELECT count(*)::int AS c FROM ${table}`)) as Array<{ c: number }>;
    expect(rows[0].c).toBe(values.length);
  });

  it('quotes literals so a quote in the value stays data', async () => {
    const got: string[] = [];
    await copyBinaryOut(ds, `SELECT ${quoteLiteral("it's'; DROP TABLE x; --")}::text`, (t) =>
      got.push((t[0] as Buffer).toString('utf8')),
    );
    expect(got).toEqual(["it's'; DROP TABLE x; --"]);
  });
});
