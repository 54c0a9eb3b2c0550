import type { INestApplication } from '@nestjs/common';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../../cli/src/main';
import { H, signUp, startApp, type Agent } from './support/api-test-app';
import { uploadFile as upload } from './support/uploads';

// Issue 20 through the real api (Postgres + Redis): output options and "match the template" compared as
// bytes, control totals, the upload answer's inferred column transforms and matching mappings, recipes
// exported and imported back, and the command-line tool giving the same bytes as the api for a recipe.

/** A bank export as people get them: amounts "(12.50)", "£7.25 CR", "£1,200.00 DR", day-first dates. */
const BANK = Buffer.from(
  'Date,Description,Amount,Paid out,Paid in\r\n' +
    '31/01/2024,Café Royal,(12.50),12.50,\r\n' +
    '01/02/2024,Refund,£7.25 CR,,7.25\r\n' +
    '15/02/2024,Rent,£1200.00 DR,1200.00,\r\n',
  'utf8',
);

const PAIRS = [
  {
    templateColumn: 'Datum',
    dataColumn: 'Date',
    transform: { kind: 'date', input: 'DD/MM/YYYY', output: 'DD.MM.YYYY' },
  },
  { templateColumn: 'Buchungstext', dataColumn: 'Description' },
  { templateColumn: 'Betrag', dataColumn: 'Amount', transform: { kind: 'amount', decimals: 2 } },
];

/** The expected body with the template's delimiter and line ending (UTF-8 text). */
function body(delim: string, eol: string): string {
  return (
    ['Datum', 'Buchungstext', 'Betrag'].join(delim) +
    eol +
    [
      ['31.01.2024', 'Café Royal', '-12.50'],
      ['01.02.2024', 'Refund', '7.25'],
      ['15.02.2024', 'Rent', '-1200.00'],
    ]
      .map((r) => r.join(delim))
      .join(eol) +
    eol
  );
}

function encode1252(s: string): Buffer {
  // Latin-1 covers every character these tests write; € is 0x80 in Windows-1252.
  return Buffer.from([...s].map((c) => (c === '€' ? 0x80 : c.charCodeAt(0))));
}

/** The result's exact bytes: csvBase64 when the output is not UTF-8, else the text as UTF-8. */
function bytesOf(res: { body: { csvData: string; csvBase64?: string } }): Buffer {
  return res.body.csvBase64 !== undefined
    ? Buffer.from(res.body.csvBase64, 'base64')
    : Buffer.from(res.body.csvData, 'utf8');
}

describe('Output options, control totals and recipes (e2e)', () => {
  let app: INestApplication;
  let agent: Agent;
  let dataFileId: string;
  let dir: string;
  beforeAll(async () => {
    app = await startApp();
    ({ agent } = await signUp(app, 'pro'));
    const d = await upload(agent, 'data', BANK).expect(201);
    dataFileId = d.body.id as string;
    dir = mkdtempSync(join(tmpdir(), 'csv-mapper-cli-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await app.close();
  });

  async function processWith(template: Buffer, options: Record<string, unknown> = {}) {
    const t = await upload(agent, 'template', template).expect(201);
    return agent
      .post('/api/process')
      .set(H)
      .send({ templateFileId: t.body.id, dataFileId, mappings: PAIRS, options })
      .expect(200);
  }

  const TEMPLATES: [string, Buffer, Buffer][] = [
    ['semicolon, LF', Buffer.from('Datum;Buchungstext;Betrag\n'), Buffer.from(body(';', '\n'))],
    ['TAB, CRLF', Buffer.from('Datum\tBuchungstext\tBetrag\r\n'), Buffer.from(body('\t', '\r\n'))],
    [
      'BOM, comma, CRLF',
      Buffer.from('\ufeffDatum,Buchungstext,Betrag\r\n'),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body(',', '\r\n'))]),
    ],
    [
      'Windows-1252, semicolon, CRLF',
      encode1252('Datum;Buchungstext;Betrag\r\n01.01.2024;Gebühr;1,00\r\n'),
      encode1252(body(';', '\r\n')),
    ],
  ];

  it.each(TEMPLATES)(
    'matches a template file (%s) byte for byte by default',
    async (_name, template, want) => {
      const res = await processWith(template);
      expect(bytesOf(res).equals(want)).toBe(true);
      expect(res.body.output.matchedTemplate).toBe(true);
    },
  );

  it('writes the Windows-1252 match as cp1252 bytes: é is one byte 0xE9, and csvData is the same text', async () => {
    const res = await processWith(TEMPLATES[3][1]);
    const bytes = bytesOf(res);
    expect(bytes.includes(Buffer.from([0x43, 0x61, 0x66, 0xe9]))).toBe(true); // "Café"
    expect(res.body.output).toMatchObject({ encoding: 'windows-1252', delimiter: ';', lineEnding: '\r\n' });
    expect(res.body.csvData).toBe(body(';', '\r\n'));
  });

  it('each output option set explicitly wins over the template', async () => {
    const template = Buffer.from('Datum;Buchungstext;Betrag\n');
    const comma = await processWith(template, { delimiter: ',' });
    expect(bytesOf(comma).toString()).toBe(body(',', '\n'));
    const crlf = await processWith(template, { lineEnding: '\r\n' });
    expect(bytesOf(crlf).toString()).toBe(body(';', '\r\n'));
    const bom = await processWith(template, { bom: true });
    expect(
      bytesOf(bom).equals(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body(';', '\n'))])),
    ).toBe(true);
    const all = await processWith(template, { quoteStyle: 'all' });
    expect(bytesOf(all).toString()).toBe(
      '"Datum";"Buchungstext";"Betrag"\n"31.01.2024";"Café Royal";"-12.50"\n"01.02.2024";"Refund";"7.25"\n"15.02.2024";"Rent";"-1200.00"\n',
    );
    const latin = await processWith(template, { encoding: 'windows-1252' });
    expect(bytesOf(latin).equals(encode1252(body(';', '\n')))).toBe(true);
  });

  it('matchTemplate: false writes the defaults (comma, CRLF, no BOM, UTF-8)', async () => {
    const res = await processWith(TEMPLATES[2][1], { matchTemplate: false });
    expect(bytesOf(res).toString()).toBe(body(',', '\r\n'));
    expect(res.body.output).toEqual({
      delimiter: ',',
      lineEnding: '\r\n',
      bom: false,
      encoding: 'utf-8',
      quoteStyle: 'minimal',
      formulaProtection: true,
      matchedTemplate: false,
    });
  });

  it('counts the characters Windows-1252 lacks and reports them in the totals', async () => {
    const t = await upload(agent, 'template', Buffer.from('Text\n')).expect(201);
    const d = await upload(agent, 'data', Buffer.from('Text\nZłoty ✓\nplain\n')).expect(201);
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({
        templateFileId: t.body.id,
        dataFileId: d.body.id,
        mappings: [{ templateColumn: 'Text', dataColumn: 'Text' }],
        options: { encoding: 'windows-1252' },
      })
      .expect(200);
    expect(bytesOf(res).toString('latin1')).toBe('Text\nZ?oty ?\nplain\n');
    expect(res.body.totals.unmappableCharacters).toBe(2);
  });

  it('answers control totals: rows read, written, skipped, and sum read vs written per amount column', async () => {
    const res = await processWith(Buffer.from('Datum;Buchungstext;Betrag\n'));
    expect(res.body.totals).toEqual({
      rowsInFile: 3,
      rowsRead: 3,
      rowsWritten: 3,
      rowsSkipped: 0,
      skipped: [],
      warningCount: 0,
      raggedRows: 0,
      unmappableCharacters: 0,
      columns: [
        expect.objectContaining({
          column: 'Betrag',
          kind: 'amount',
          sourceTotal: '-1205.25',
          outputTotal: '-1205.25',
          values: 3,
          unreadable: 0,
        }),
      ],
    });
  });

  it('refuses an unknown quote style or encoding with 400', async () => {
    const t = await upload(agent, 'template', Buffer.from('Datum;Buchungstext;Betrag\n')).expect(201);
    for (const options of [{ quoteStyle: 'some' }, { encoding: 'latin-9' }, { matchTemplate: 'yes' }]) {
      const res = await agent
        .post('/api/process')
        .set(H)
        .send({ templateFileId: t.body.id, dataFileId, mappings: PAIRS, options })
        .expect(400);
      expect(res.body.code).toBeDefined();
    }
  });

  it('the upload answer carries each column’s inferred transform, line ending and BOM', async () => {
    const d = await upload(agent, 'data', BANK).expect(201);
    const byName = Object.fromEntries(
      (d.body.columns as { name: string; inferred: unknown }[]).map((c) => [c.name, c.inferred]),
    );
    expect(byName).toEqual({
      Date: { kind: 'date', input: 'DD/MM/YYYY', output: 'YYYY-MM-DD' },
      Description: null,
      Amount: { kind: 'amount', decimals: 2 },
      'Paid out': { kind: 'debitCredit', debitColumn: 'Paid out', creditColumn: 'Paid in', decimals: 2 },
      'Paid in': { kind: 'debitCredit', debitColumn: 'Paid out', creditColumn: 'Paid in', decimals: 2 },
    });
    expect(d.body).toMatchObject({ lineEnding: '\r\n', bom: false, matchingMappings: [] });
  });

  it('exports a saved mapping as a recipe and imports it back; the upload answer lists it as a match', async () => {
    const saved = await agent
      .post('/api/mappings')
      .set(H)
      .send({
        name: 'Bank to DATEV',
        templateHeaders: ['Datum', 'Buchungstext', 'Betrag'],
        dataHeaders: ['Date', 'Description', 'Amount', 'Paid out', 'Paid in'],
        mappings: PAIRS,
        output: { delimiter: ';', encoding: 'windows-1252', lineEnding: '\r\n' },
      })
      .expect(201);
    const recipe = await agent.get(`/api/mappings/${saved.body.id}/recipe`).set(H).expect(200);
    expect(recipe.body).toEqual({
      format: 'csv-mapper/recipe',
      version: 1,
      name: 'Bank to DATEV',
      templateHeaders: ['Datum', 'Buchungstext', 'Betrag'],
      dataHeaders: ['Date', 'Description', 'Amount', 'Paid out', 'Paid in'],
      mappings: PAIRS,
      output: { delimiter: ';', encoding: 'windows-1252', lineEnding: '\r\n' },
    });
    const imported = await agent
      .post('/api/mappings/import')
      .set(H)
      .send({ ...recipe.body, name: 'Bank to DATEV (copy)' })
      .expect(201);
    expect(imported.body).toMatchObject({
      name: 'Bank to DATEV (copy)',
      templateHeaders: recipe.body.templateHeaders,
      mappings: PAIRS,
      output: recipe.body.output,
    });
    const again = await agent.get(`/api/mappings/${imported.body.id}/recipe`).set(H).expect(200);
    expect({ ...again.body, name: 'Bank to DATEV' }).toEqual(recipe.body);

    const d = await upload(agent, 'data', BANK).expect(201);
    const unchanged = { changes: { added: [], removed: [], renamed: [] }, missingColumns: [] };
    expect(d.body.matchingMappings).toEqual([
      { id: saved.body.id, name: 'Bank to DATEV', score: 1, ...unchanged },
      { id: imported.body.id, name: 'Bank to DATEV (copy)', score: 1, ...unchanged },
    ]);
  });

  it('runs a saved mapping with its output options; request options win over them', async () => {
    const saved = await agent
      .post('/api/mappings')
      .set(H)
      .send({
        name: 'Pipes',
        templateHeaders: ['Datum', 'Buchungstext', 'Betrag'],
        mappings: PAIRS,
        output: { delimiter: '|', quoteStyle: 'all' },
      })
      .expect(201);
    const t = await upload(agent, 'template', Buffer.from('Datum;Buchungstext;Betrag\n')).expect(201);
    const run = (options: Record<string, unknown>) =>
      agent
        .post('/api/process')
        .set(H)
        .send({ templateFileId: t.body.id, dataFileId, mappingId: saved.body.id, options })
        .expect(200);
    const asSaved = await run({});
    expect(bytesOf(asSaved).toString().split('\n')[1]).toBe('"31.01.2024"|"Café Royal"|"-12.50"');
    const overridden = await run({ quoteStyle: 'minimal' });
    expect(bytesOf(overridden).toString().split('\n')[1]).toBe('31.01.2024|Café Royal|-12.50');
  });

  it('refuses a recipe of another format or version, and hides another user’s mapping (404)', async () => {
    const base = {
      format: 'csv-mapper/recipe',
      version: 1,
      name: 'x',
      templateHeaders: ['A'],
      mappings: [{ templateColumn: 'A', dataColumn: 'a' }],
    };
    const wrongVersion = await agent
      .post('/api/mappings/import')
      .set(H)
      .send({ ...base, version: 2 })
      .expect(400);
    expect(wrongVersion.body.code).toBe('UNSUPPORTED_RECIPE_VERSION');
    const notRecipe = await agent
      .post('/api/mappings/import')
      .set(H)
      .send({ ...base, format: 'other' })
      .expect(400);
    expect(notRecipe.body.code).toBe('INVALID_RECIPE');
    const unknownColumn = await agent
      .post('/api/mappings/import')
      .set(H)
      .send({ ...base, mappings: [{ templateColumn: 'B', dataColumn: 'a' }] })
      .expect(400);
    expect(unknownColumn.body.error).toMatch(/B/);

    const mine = await agent.post('/api/mappings/import').set(H).send(base).expect(201);
    const other = await signUp(app, 'pro');
    await other.agent.get(`/api/mappings/${mine.body.id}/recipe`).set(H).expect(404);
  });

  it('applies the plan limit on saved mappings to imports (403)', async () => {
    const free = await signUp(app);
    const recipe = {
      format: 'csv-mapper/recipe',
      version: 1,
      name: 'one',
      templateHeaders: ['A'],
      mappings: [{ templateColumn: 'A', dataColumn: 'a' }],
    };
    await free.agent.post('/api/mappings/import').set(H).send(recipe).expect(201);
    const res = await free.agent
      .post('/api/mappings/import')
      .set(H)
      .send({ ...recipe, name: 'two' })
      .expect(403);
    expect(res.body.code).toBe('MAPPING_LIMIT_REACHED');
  });

  it.each(TEMPLATES)(
    'the command-line tool writes the bytes the api wrote for the same recipe, data and template (%s)',
    async (name, template) => {
      const api = await processWith(template);
      const recipe = {
        format: 'csv-mapper/recipe',
        version: 1,
        name: 'Bank',
        templateHeaders: ['Datum', 'Buchungstext', 'Betrag'],
        mappings: PAIRS,
      };
      const slug = name.replace(/\W+/g, '-');
      writeFileSync(join(dir, 'recipe.json'), JSON.stringify(recipe));
      writeFileSync(join(dir, `tpl-${slug}.csv`), template);
      writeFileSync(join(dir, 'bank.csv'), BANK);
      const stderr = new PassThrough();
      const chunks: Buffer[] = [];
      stderr.on('data', (c: Buffer) => chunks.push(c));
      const out = join(dir, `out-${slug}.csv`);
      const code = await main(
        [
          'run',
          '--recipe',
          join(dir, 'recipe.json'),
          join(dir, 'bank.csv'),
          '-o',
          out,
          '-t',
          join(dir, `tpl-${slug}.csv`),
        ],
        stderr,
      );
      expect(code).toBe(0);
      expect(readFileSync(out).equals(bytesOf(api))).toBe(true);
      const said = Buffer.concat(chunks).toString();
      expect(said).toMatch(/Rows read: +3/);
      expect(said).toMatch(/Betrag: -1205\.25 → -1205\.25/);
    },
  );
});
