// The worker thread's side of a parallel mapping (see parallel.ts): the module the worker loads
// (`workerFile`, this file as TypeScript under Jest and ts-node, as JavaScript in dist/) and its loop.
import { parentPort } from 'node:worker_threads';
import type { FromWorker, ToWorker } from '../parallel';
import { RecordParser, type ParserLimits } from '../parser';
import { MappingRun } from './run';

/** The module a worker thread requires to call mappingWorkerMain (ParallelMapper.start). */
export const workerFile = __filename;

/**
 * The worker thread of a parallel mapping (see parallel.ts): maps the blocks it is sent with the same
 * MappingRun as the main thread and returns output bytes, stats and how far it got.
 */
export function mappingWorkerMain(): void {
  const port = parentPort;
  if (!port) return;
  let run: MappingRun | null = null;
  const inputs: Buffer[] = [Buffer.alloc(0), Buffer.alloc(0), Buffer.alloc(0)];
  let lastEnd = 0;
  let delimiter = 0x2c;
  let limits: ParserLimits = {};
  const reply = (m: FromWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);
  port.on('message', (m: ToWorker) => {
    if (m.type === 'init') {
      run = new MappingRun(m.init.templateHeaders, m.init.mappings, m.init.options);
      run.startBlocks(m.init);
      delimiter = m.init.delimiter;
      limits = m.init.limits;
      reply({ type: 'ready' });
      return;
    }
    if (m.type === 'input') {
      inputs[m.slot] = Buffer.from(m.sab);
      return;
    }
    const r = run as MappingRun;
    const t0 = performance.now();
    const idleMs = lastEnd > 0 ? t0 - lastEnd : 0;
    let rows = 0;
    try {
      const parser = new RecordParser(delimiter, (rec) => r.row(rec, ++rows), limits);
      parser.push(inputs[m.slot].subarray(0, m.length));
      r.flush(true);
      const chunks: ArrayBuffer[] = [];
      const lengths: number[] = [];
      for (const c of r.chunks.splice(0)) {
        // Only a Buffer that is its whole ArrayBuffer may be transferred (small ones can share a pool).
        let own: Uint8Array = c;
        if (c.byteOffset !== 0 || c.buffer.byteLength !== c.length) {
          own = new Uint8Array(c.length);
          own.set(c);
        }
        chunks.push(own.buffer as ArrayBuffer);
        lengths.push(c.length);
      }
      const stats = r.takeBlockStats();
      lastEnd = performance.now();
      reply(
        {
          type: 'block',
          ok: true,
          consumed: parser.bytesConsumed,
          lines: parser.nextLine - 1,
          rows,
          idleMs,
          stats,
          chunks,
          lengths,
        },
        chunks,
      );
    } catch {
      // The main thread maps this block itself (and reports any error with the right line).
      r.chunks.length = 0;
      r.sink.pos = 0;
      r.takeBlockStats();
      lastEnd = performance.now();
      reply({ type: 'block', ok: false });
    }
  });
}
