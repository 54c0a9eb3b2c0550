import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { binWorkDir, recipeFile, runBin } from '../test/support/bin';

// csv-mapper run --history FILE as a person runs it (a separate node process from the sources): two
// overlapping statements one after the other; the second leaves out (skip) or flags the overlapping rows.

const run = (args: string[], cwd: string) => runBin(args, cwd, 'utf8');

describe('csv-mapper run --history', () => {
  let dir: string;
  beforeAll(() => {
    dir = binWorkDir('csv-mapper-history-', {
      'recipe.json': recipeFile({
        name: 'Bank',
        templateHeaders: ['Date', 'Payee', 'Amount'],
        mappings: [
          { templateColumn: 'Date', dataColumn: 'Booking date' },
          { templateColumn: 'Payee', dataColumn: 'Description' },
          { templateColumn: 'Amount', dataColumn: 'Amount' },
        ],
        output: { lineEnding: '\n' },
      }),
      'a.csv':
        'Booking date,Description,Amount\n2026-10-01,TESCO,-23.41\n2026-10-02,SALARY,2450.00\n2026-10-20,ATM,-40.00\n',
      'b.csv': 'Booking date,Description,Amount\n2026-10-20,ATM,-40.00\n2026-10-22,BOOTS,-12.49\n',
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('skip leaves out the row the first run wrote; the file holds fingerprints, not values', () => {
    const hist = join(dir, 'skip.history.json');
    const first = run(['run', '-r', 'recipe.json', 'a.csv', '-o', 'a.out.csv', '--history', hist], dir);
    expect(first.status).toBe(0);
    expect(first.stderr).toContain('already exported: none of these rows');
    const second = run(
      ['run', '-r', 'recipe.json', 'b.csv', '-o', 'b.out.csv', '--history', hist, '--duplicates', 'skip'],
      dir,
    );
    expect(second.status).toBe(0);
    expect(readFileSync(join(dir, 'b.out.csv'), 'utf8')).toBe('Date,Payee,Amount\n2026-10-22,BOOTS,-12.49\n');
    expect(second.stderr).toMatch(/already exported: 1 rows \(1 on \d{4}-\d\d-\d\d\); left out/);
    const file = readFileSync(hist, 'utf8');
    expect(JSON.parse(file)).toMatchObject({ format: 'csv-mapper/history', version: 1 });
    expect(JSON.parse(file).runs).toHaveLength(2);
    for (const value of ['TESCO', 'ATM', '2450.00', '2026-10']) expect(file).not.toContain(value);
  });

  it('flag writes every row and says which were exported before', () => {
    const hist = join(dir, 'flag.history.json');
    expect(run(['run', '-r', 'recipe.json', 'a.csv', '-o', 'a2.csv', '--history', hist], dir).status).toBe(0);
    const second = run(['run', '-r', 'recipe.json', 'b.csv', '-o', 'b2.csv', '--history', hist], dir);
    expect(second.status).toBe(0);
    expect(readFileSync(join(dir, 'b2.csv'), 'utf8')).toBe(
      'Date,Payee,Amount\n2026-10-20,ATM,-40.00\n2026-10-22,BOOTS,-12.49\n',
    );
    expect(second.stderr).toContain('already exported: 1 rows');
    expect(second.stderr).toContain('written, flagged');
  });
});
