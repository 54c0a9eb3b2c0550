import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { binWorkDir, recipeFile, runBin as run } from '../test/support/bin';

// The `csv-mapper` bin as a person runs it: a separate node process from the sources (no build, no
// server, no account). That its bytes equal the api's is shown in apps/api/test/output-options.e2e-spec.ts.

// A bank export's Date;Text;Amount onto the template's Datum, Text and Betrag (both recipes below).
const BANK_COLUMNS = {
  templateHeaders: ['Datum', 'Text', 'Betrag'],
  mappings: [
    { templateColumn: 'Datum', dataColumn: 'Date', transform: { kind: 'date', output: 'YYYY-MM-DD' } },
    { templateColumn: 'Text', dataColumn: 'Text' },
    { templateColumn: 'Betrag', dataColumn: 'Amount', transform: { kind: 'amount', decimals: 2 } },
  ],
};

describe('csv-mapper (bin)', () => {
  let dir: string;
  beforeAll(() => {
    dir = binWorkDir('csv-mapper-bin-', {
      // A cp1252 bank file with a preamble line, read with the recipe's header row.
      'bank.csv': Buffer.from(
        'Exported 2024-03-01\nDate;Text;Amount\n31/01/2024;Caf\xe9;(12,50)\n01/02/2024;Refund;7,25 CR\n',
        'latin1',
      ),
      'recipe.json': recipeFile({
        name: 'Bank',
        ...BANK_COLUMNS,
        reading: { headerRow: 2, delimiter: ';' },
        output: { delimiter: ';', lineEnding: '\n', encoding: 'windows-1252' },
      }),
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('maps the file with the recipe into -o and prints the control totals on stderr', () => {
    const r = run(['run', '--recipe', 'recipe.json', 'bank.csv', '-o', 'out.csv'], dir);
    expect(r.stderr.toString()).toContain('Rows written:  2 → out.csv');
    expect(r.status).toBe(0);
    expect(readFileSync(join(dir, 'out.csv'))).toEqual(
      Buffer.from('Datum;Text;Betrag\n2024-01-31;Caf\xe9;-12.50\n2024-02-01;Refund;7.25\n', 'latin1'),
    );
    expect(r.stderr.toString()).toMatch(/Betrag: -5\.25 → -5\.25/);
  });

  it('writes to stdout without -o', () => {
    const r = run(['run', '-q', '-r', 'recipe.json', 'bank.csv'], dir);
    expect(r.status).toBe(0);
    expect(r.stdout.toString('latin1')).toBe(
      'Datum;Text;Betrag\n2024-01-31;Café;-12.50\n2024-02-01;Refund;7.25\n',
    );
    expect(r.stderr.toString()).toBe('');
  });

  it('reads a file without a header row when the recipe says headerRow 0: the first record is data', () => {
    writeFileSync(join(dir, 'headerless.csv'), '2024-01-31,Coffee,-3.50\n2024-02-01,Salary,2000\n');
    writeFileSync(
      join(dir, 'headerless.json'),
      recipeFile({
        name: 'Headerless bank',
        templateHeaders: ['Date', 'Description', 'Amount'],
        mappings: [
          { templateColumn: 'Date', dataColumn: 'Column 1' },
          { templateColumn: 'Description', dataColumn: 'Column 2' },
          { templateColumn: 'Amount', dataColumn: 'Column 3' },
        ],
        reading: { headerRow: 0 },
        output: { lineEnding: '\n' },
      }),
    );
    const r = run(['run', '-q', '-r', 'headerless.json', 'headerless.csv'], dir);
    expect(r.stderr.toString()).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.toString()).toBe(
      'Date,Description,Amount\n2024-01-31,Coffee,-3.50\n2024-02-01,Salary,2000\n',
    );
  });

  it('writes the same bytes to -o as to stdout over many output chunks (a chunk reused before it was written would differ)', () => {
    const lines = ['Date;Text;Amount'];
    for (let i = 0; i < 60_000; i++)
      lines.push(
        `${String((i % 28) + 1).padStart(2, '0')}/01/2024;Payment ${i}, ref ${'x'.repeat(i % 30)};${i},${i % 100}`,
      );
    writeFileSync(join(dir, 'many.csv'), lines.join('\n') + '\n');
    writeFileSync(
      join(dir, 'many.json'),
      recipeFile({
        name: 'Many',
        ...BANK_COLUMNS,
        reading: { delimiter: ';' },
      }),
    );
    const toFile = run(['run', '-q', '-r', 'many.json', 'many.csv', '-o', 'many-out.csv'], dir);
    expect(toFile.stderr.toString()).toBe('');
    expect(toFile.status).toBe(0);
    const toStdout = run(['run', '-q', '-r', 'many.json', 'many.csv'], dir);
    expect(toStdout.status).toBe(0);
    const written = readFileSync(join(dir, 'many-out.csv'));
    expect(written.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(written.equals(toStdout.stdout)).toBe(true);
    expect(written.toString('utf8', 0, 100)).toMatch(
      /^Datum,Text,Betrag\r\n2024-01-01,"Payment 0, ref ",0\.00\r\n2024-01-02,"Payment 1, ref x",1\.10\r\n/,
    );
  });

  it('says what is wrong: usage (exit 2), a recipe that is not valid, a missing file (exit 1)', () => {
    const usage = run(['run', 'bank.csv'], dir);
    expect(usage.status).toBe(2);
    expect(usage.stderr.toString()).toContain('Say which recipe to run');
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ format: 'csv-mapper/recipe', version: 9 }));
    const bad = run(['run', '-r', 'bad.json', 'bank.csv'], dir);
    expect(bad.status).toBe(1);
    expect(bad.stderr.toString()).toContain('version must be one of: 1');
    const missing = run(['run', '-r', 'recipe.json', 'nope.csv'], dir);
    expect(missing.status).toBe(1);
    expect(missing.stderr.toString()).toContain('file not found');
  });
});
