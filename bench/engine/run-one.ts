// Child process: runs one implementation on one job and prints a JSON line with time, hash and peak RSS.
import { statSync } from 'node:fs';
import { IMPLEMENTATIONS, REFERENCES, type Job } from './jobs';

async function main(): Promise<void> {
  const [impl, job, file] = process.argv.slice(2);
  const fn = IMPLEMENTATIONS[impl] ?? REFERENCES[impl];
  if (!fn) throw new Error(`unknown implementation ${impl}`);
  const t0 = process.hrtime.bigint();
  const r = await fn(file, job as Job);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const rssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(
    JSON.stringify({ impl, job, ms, rows: r.rows, hash: r.hash, rssMb, bytes: statSync(file).size }) + '\n',
  );
}

main().catch((e) => {
  process.stderr.write(String(e instanceof Error ? e.stack : e) + '\n');
  process.exit(1);
});
