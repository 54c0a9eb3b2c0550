import { applyMapping } from './mapping';
import { splitAt } from './test-helpers';
import { ByteSink, recycleChunk } from './writer';

// Output memory a consumer gives back (recycleChunk): the next chunk of that size is written into it
// instead of fresh memory, and the bytes stay what they were.

const SIZE = 256 * 1024;

function fill(sink: ByteSink, byte: number, n: number): void {
  sink.ensure(n);
  sink.buf.fill(byte, sink.pos, sink.pos + n);
  sink.pos += n;
}

describe('ByteSink.take and recycleChunk', () => {
  it('writes the next chunk into the memory of a chunk given back', () => {
    const sink = new ByteSink(SIZE);
    fill(sink, 0x61, SIZE - 10);
    const first = sink.take();
    expect(first.length).toBe(SIZE - 10);
    expect(first.every((b) => b === 0x61)).toBe(true);
    // Not given back: the sink goes on in other memory.
    expect(sink.buf.buffer).not.toBe(first.buffer);
    recycleChunk(first);
    fill(sink, 0x62, SIZE - 20);
    const second = sink.take();
    expect(second.every((b) => b === 0x62)).toBe(true);
    // The sink now writes into the first chunk's memory, and hands out the second's untouched.
    expect(sink.buf.buffer).toBe(first.buffer);
    fill(sink, 0x63, SIZE - 30);
    const third = sink.take();
    expect(third.buffer).toBe(first.buffer);
    expect(third.every((b) => b === 0x63)).toBe(true);
    expect(second.every((b) => b === 0x62)).toBe(true);
  });

  it('never writes into a small buffer, a slice of a larger one or a buffer of another size', () => {
    const sink = new ByteSink(SIZE);
    recycleChunk(Buffer.from('small')); // a slice of Node's shared pool
    recycleChunk(Buffer.alloc(SIZE * 2).subarray(SIZE)); // not at the start of its memory
    const other = Buffer.alloc(SIZE * 2); // the right kind, another size
    recycleChunk(other);
    fill(sink, 0x61, SIZE - 1);
    const out = sink.take();
    expect(out.every((b) => b === 0x61)).toBe(true);
    expect(sink.buf.buffer).not.toBe(other.buffer);
    expect(sink.buf.length).toBe(SIZE);
  });
});

describe('applyMapping with a consumer that gives its chunks back', () => {
  const rows = 100_000;
  const lines = ['Date,Amount,Name'];
  for (let i = 0; i < rows; i++)
    lines.push(
      `${String((i % 28) + 1).padStart(2, '0')}/0${(i % 9) + 1}/2024,"${i},${i % 100}","Name ${i}, ${'x'.repeat(i % 40)}"`,
    );
  const bytes = Buffer.from(lines.join('\r\n') + '\r\n');
  // Read as a file is, a chunk at a time (the output is flushed as the rows of each chunk are mapped).
  const input = splitAt(
    bytes,
    Array.from({ length: bytes.length >> 16 }, (_, k) => (k + 1) << 16),
  );
  const headers = ['Name', 'Date', 'Amount'];
  const mappings = [
    { templateColumn: 'Name', dataColumn: 'Name' },
    {
      templateColumn: 'Date',
      dataColumn: 'Date',
      transform: { kind: 'date' as const, output: 'YYYY-MM-DD' },
    },
    { templateColumn: 'Amount', dataColumn: 'Amount', transform: { kind: 'amount' as const } },
  ];

  async function run(recycle: boolean): Promise<{ bytes: Buffer; chunks: number; memories: number }> {
    const { output, stats } = applyMapping(input, headers, mappings);
    const parts: Buffer[] = [];
    const memories = new Set<ArrayBufferLike>();
    let chunks = 0;
    for await (const c of output) {
      const chunk = c as Buffer;
      chunks++;
      memories.add(chunk.buffer);
      parts.push(Buffer.from(chunk)); // a copy: the consumer is done with the chunk after this
      if (recycle) recycleChunk(chunk);
    }
    await stats;
    return { bytes: Buffer.concat(parts), chunks, memories: memories.size };
  }

  it('writes the same bytes, chunk after chunk in the same memory', async () => {
    const plain = await run(false);
    const recycled = await run(true);
    expect(plain.chunks).toBeGreaterThan(8);
    expect(recycled.bytes.equals(plain.bytes)).toBe(true);
    expect(plain.memories).toBe(plain.chunks);
    // The first (small) chunk, two buffers taking turns, the last (small) chunk.
    expect(recycled.memories).toBeLessThanOrEqual(4);
  });
});
