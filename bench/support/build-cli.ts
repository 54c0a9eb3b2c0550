// The command-line tool as `npm run build:server` lays it out in dist/, built into a folder of the bench's
// (bench:cli, bench:engine): apps/cli/src and libs/<lib>/src compiled with swc (CommonJS, decorators and
// their metadata), `@csv-mapper/<lib>` rewritten to relative paths as tsc-alias does, and the bin copied
// next to it, so the bin starts the built tool. Times what a person runs, without touching dist/.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { transformSync } from '@swc/core';

/**
 * Compiles apps/cli/src and libs/<lib>/src of `from` into `to` with dist/'s layout (dist/apps/cli/src/main.js
 * …), `@csv-mapper/<lib>` rewritten to relative paths as tsc-alias does, and copies the bin next to it: the
 * bin then starts the built tool, as after `npm run build:server`.
 */
export function buildCli(from: string, to: string): string {
  rmSync(to, { recursive: true, force: true });
  const dirs = [
    join(from, 'apps/cli/src'),
    ...readdirSync(join(from, 'libs')).map((l) => join(from, 'libs', l, 'src')),
  ];
  for (const dir of dirs) {
    for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!name.endsWith('.ts') || name.endsWith('.spec.ts') || name.endsWith('.d.ts')) continue;
      const src = join(dir, name);
      const out = join(to, 'dist', relative(from, src)).replace(/\.ts$/, '.js');
      let { code } = transformSync(readFileSync(src, 'utf8'), {
        filename: src,
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      });
      code = code.replace(/require\("@csv-mapper\/([\w-]+)"\)/g, (_m, lib: string) => {
        let rel = relative(dirname(out), join(to, 'dist/libs', lib, 'src/index.js'));
        if (!rel.startsWith('.')) rel = `./${rel}`;
        return `require(${JSON.stringify(rel)})`;
      });
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, code);
    }
  }
  const bin = join(to, 'apps/cli/bin/csv-mapper.js');
  mkdirSync(dirname(bin), { recursive: true });
  copyFileSync(join(from, 'apps/cli/bin/csv-mapper.js'), bin);
  return bin;
}
