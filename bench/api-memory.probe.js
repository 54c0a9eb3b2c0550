// Preloaded into the api by bench/api-memory.bench.ts (`node --expose-gc -r bench/api-memory.probe.js …`);
// never part of the product. On SIGWINCH (not SIGUSR2: Nest's enableShutdownHooks() shuts the api down on it) it writes the process' memory to API_MEMORY_PROBE_FILE as JSON,
// before and after a full garbage collection, so the bench can tell a leak (what survives a GC keeps
// growing) from V8 sizing its heap (RSS grows once, then plateaus).
'use strict';
const { writeFileSync } = require('node:fs');

const file = process.env.API_MEMORY_PROBE_FILE;
const mb = (n) => Math.round((n / 1048576) * 10) / 10;
const snap = () => {
  const m = process.memoryUsage();
  return { rss: mb(m.rss), heapTotal: mb(m.heapTotal), heapUsed: mb(m.heapUsed), external: mb(m.external) };
};

if (file) {
  process.on('SIGWINCH', () => {
    const before = snap();
    if (typeof global.gc === 'function') {
      global.gc();
      global.gc();
    }
    writeFileSync(file, JSON.stringify({ at: Date.now(), before, afterGc: snap() }));
  });
}
