// Issue 26: signs from a direction column and `invert`, date order from the file's other hints (the
// upload's inference and the run's profile agreeing), and no silent blanks from a debit/credit pair.
import { MappingError } from '../errors';
import { applyMapping, applyMappingToBuffer, validateMappings } from '../mapping';
import { parallelCounters } from '../parallel';
import type { ApplyOptions, MappingPair, Transform } from '../types';
import { debitCreditPartner, inferColumnTransforms } from './column-kinds';

async function run(csv: string, template: string[], mappings: MappingPair[], options: ApplyOptions = {}) {
  const { data, stats } = await applyMappingToBuffer(csv, template, mappings, {
    lineEnding: '\n',
    ...options,
  });
  return { lines: data.toString('utf8').split('\n').slice(1, -1), stats };
}

/** Cells of a CSV text (no quotes in these fixtures) split by `d`, header first. */
function table(csv: string, d: string): { headers: string[]; rows: string[][] } {
  const [head, ...rest] = csv.trimEnd().split('\n');
  return { headers: head.split(d), rows: rest.map((l) => l.split(d)) };
}

const ING_NL =
  'Datum;Naam / Omschrijving;Af Bij;Bedrag (EUR)\n' +
  '20240102;Albert Heijn;Af;12,50\n' +
  '20240103;Salaris;Bij;2.500,00\n' +
  '20240104;Terugbetaling;bij ;3,10\n' +
  '20240105;Huur;AF;950,00\n';

describe('sign from a direction column', () => {
  const amount = (extra: Partial<Transform> = {}): MappingPair[] => [
    {
      templateColumn: 'Amount',
      dataColumn: 'Bedrag (EUR)',
      transform: { kind: 'amount', sign: { column: 'Af Bij', negative: ['Af'] }, ...extra } as Transform,
    },
  ];

  it('makes money out negative (values trimmed, any case) and counts the signed values in the totals', async () => {
    const r = await run(ING_NL, ['Amount'], amount());
    expect(r.lines).toEqual(['-12.50', '2500.00', '3.10', '-950.00']);
    expect(r.stats.controlTotals).toEqual([
      expect.objectContaining({
        column: 'Amount',
        sourceTotal: '1540.60',
        outputTotal: '1540.60',
        values: 4,
      }),
    ]);
    expect(r.stats.warnings).toEqual([]);
  });

  it('a written sign gives way to the direction; an empty direction keeps it; other values are money in', async () => {
    const csv =
      'Amount,Type\n-5.00,Credit\n7.00,debit\n(3.00),\n4.00,\n2.00,Refund\n1.00,DÉBIT\n8.00,"Débit"\n';
    const r = await run(
      csv,
      ['Amount'],
      [
        {
          templateColumn: 'Amount',
          dataColumn: 'Amount',
          transform: {
            kind: 'amount',
            decimalSeparator: '.',
            sign: { column: 'Type', negative: [' Débit ', 'DEBIT'] },
          },
        },
      ],
    );
    expect(r.lines).toEqual(['5.00', '-7.00', '-3.00', '4.00', '2.00', '-1.00', '-8.00']);
  });

  it('invert flips every value, after the direction; number takes both too', async () => {
    const card = 'Amount\n12.50\n-3.00\n0.00\n';
    const inv = await run(
      card,
      ['A'],
      [{ templateColumn: 'A', dataColumn: 'Amount', transform: { kind: 'amount', invert: true } }],
    );
    expect(inv.lines).toEqual(['-12.50', '3.00', '0.00']);
    expect(inv.stats.controlTotals[0]).toMatchObject({ sourceTotal: '-9.50', outputTotal: '-9.50' });
    const both = await run(ING_NL, ['Amount'], amount({ invert: true }));
    expect(both.lines).toEqual(['12.50', '-2500.00', '-3.10', '950.00']);
    const num = await run(
      ING_NL,
      ['N'],
      [
        {
          templateColumn: 'N',
          dataColumn: 'Bedrag (EUR)',
          transform: { kind: 'number', sign: { column: 'Af Bij', negative: ['af'] } },
        },
      ],
    );
    // a number keeps the fraction digits it was written with
    expect(num.lines).toEqual(['-12.50', '2500.00', '3.10', '-950.00']);
  });

  it('works as the first step of a chain, and beside a pair that copies the direction column', async () => {
    const r = await run(
      ING_NL,
      ['Amount', 'Direction'],
      [
        {
          templateColumn: 'Amount',
          dataColumn: 'Bedrag (EUR)',
          transform: [{ kind: 'amount', sign: { column: 'Af Bij', negative: ['Af'] } }, { kind: 'trim' }],
        },
        { templateColumn: 'Direction', dataColumn: 'Af Bij' },
      ],
    );
    expect(r.lines).toEqual(['-12.50,Af', '2500.00,Bij', '3.10,bij ', '-950.00,AF']);
  });

  it('refuses a sign column the file lacks, naming the template column and the file’s columns', async () => {
    const bad: MappingPair[] = [
      {
        templateColumn: 'Amount',
        dataColumn: 'Bedrag (EUR)',
        transform: { kind: 'amount', sign: { column: 'Direction', negative: ['Af'] } },
      },
    ];
    await expect(run(ING_NL, ['Amount'], bad)).rejects.toThrow(
      new MappingError(
        'The sign column "Direction" for "Amount" is not a column of the data file. Its columns are: Datum, Naam / Omschrijving, Af Bij, Bedrag (EUR).',
      ),
    );
  });

  it.each<[unknown, string]>([
    ['Af Bij', 'The sign for "Amount" must name a data column and the values that mean money out'],
    [{ column: '', negative: ['Af'] }, 'The sign for "Amount" must name a data column'],
    [
      { column: 'Af Bij', negative: [] },
      'The sign for "Amount" needs the values of "Af Bij" that mean money out',
    ],
    [{ column: 'Af Bij', negative: [' '] }, 'The money-out values for "Amount" are all blank'],
  ])('refuses the sign %j with a message a person can act on', (sign, message) => {
    const pairs = [
      {
        templateColumn: 'Amount',
        dataColumn: 'x',
        transform: { kind: 'amount', sign } as unknown as Transform,
      },
    ];
    expect(() => validateMappings(['Amount'], pairs)).toThrow(message);
    const invert = [
      { templateColumn: 'Amount', dataColumn: 'x', transform: { kind: 'amount', invert: 'yes' } },
    ];
    expect(() => validateMappings(['Amount'], invert as unknown as MappingPair[])).toThrow(
      '"invert" for "Amount" must be true or false.',
    );
  });
});

describe('never a silent blank', () => {
  const BANK =
    'Date,Description,Debit Amount,Credit Amount\n' +
    '01/02/2024,Coffee,3.50,\n' +
    '02/02/2024,Salary,,2500.00\n' +
    '03/02/2024,Nothing,,\n';

  it('an amount read from one side alone warns on the rows where the other side has the value', async () => {
    const r = await run(
      BANK,
      ['Amount'],
      [{ templateColumn: 'Amount', dataColumn: 'Credit Amount', transform: { kind: 'amount' } }],
    );
    expect(r.lines).toEqual(['""', '2500.00', '""']);
    expect(r.stats.warnings).toEqual([
      {
        row: 1,
        column: 'Amount',
        value: '',
        reason:
          'Empty here, but "Debit Amount" has 3.50 on this row: nothing was written. Map "Amount" with Debit + credit to keep both sides.',
      },
    ]);
  });

  it('says nothing when the other side is mapped too (two template columns)', async () => {
    const r = await run(
      BANK,
      ['Out', 'In'],
      [
        { templateColumn: 'Out', dataColumn: 'Debit Amount', transform: { kind: 'amount' } },
        { templateColumn: 'In', dataColumn: 'Credit Amount', transform: { kind: 'amount' } },
      ],
    );
    expect(r.stats.warnings).toEqual([]);
  });

  it('a debit/credit pair with both sides empty warns (once, as "required" when the column is required)', async () => {
    const pair: MappingPair[] = [
      {
        templateColumn: 'Amount',
        dataColumn: '',
        transform: { kind: 'debitCredit', debitColumn: 'Debit Amount', creditColumn: 'Credit Amount' },
      },
    ];
    const r = await run(BANK, ['Amount'], pair);
    expect(r.lines).toEqual(['-3.50', '2500.00', '""']);
    expect(r.stats.warnings).toEqual([
      {
        row: 3,
        column: 'Amount',
        value: '',
        reason: 'Both "Debit Amount" and "Credit Amount" are empty: no amount was written.',
      },
    ]);
    const req = await run(BANK, ['Amount'], pair, { required: ['Amount'] });
    expect(req.stats.warnings.map((w) => [w.row, w.reason])).toEqual([[3, 'Required value is empty']]);
  });

  it('knows the pairs by name in several languages', () => {
    expect(debitCreditPartner(['Datum', 'Af', 'Bij'], 1)).toBe(2);
    expect(debitCreditPartner(['Soll (EUR)', 'Haben (EUR)'], 1)).toBe(0);
    expect(debitCreditPartner(['Lastschrift', 'Gutschrift'], 0)).toBe(1);
    expect(debitCreditPartner(['Cargo', 'Abono'], 0)).toBe(1);
    expect(debitCreditPartner(['Dare', 'Avere'], 1)).toBe(0);
    expect(debitCreditPartner(['Uttag', 'Insättning'], 0)).toBe(1);
    expect(debitCreditPartner(['Débit', 'Crédit'], 0)).toBe(1);
    expect(debitCreditPartner(['Payee', 'Outflow', 'Inflow'], 2)).toBe(1); // YNAB
    expect(debitCreditPartner(['Amount', 'Credit'], 1)).toBe(-1);
  });
});

describe('inferred direction columns', () => {
  const infer = (csv: string, d = ',') => {
    const t = table(csv, d);
    return Object.fromEntries(
      inferColumnTransforms(t.headers, t.rows, { delimiter: d }).map((x, k) => [t.headers[k], x]),
    );
  };

  it('ING NL: Af/Bij beside an unsigned amount with decimal commas', () => {
    expect(infer(ING_NL, ';')['Bedrag (EUR)']).toEqual({
      kind: 'amount',
      decimals: 2,
      decimalSeparator: ',',
      // compared without case: the first spelling seen stands for "af"
      sign: { column: 'Af Bij', negative: ['Af'] },
    });
  });

  it.each([
    [
      'Knab D/C',
      'Datum,Bedrag,D/C,Omschrijving\n01-02-2024,12.50,D,x\n02-02-2024,100.00,C,y\n',
      'Bedrag',
      'D/C',
      ['D'],
    ],
    [
      'German S/H',
      'Buchungstag;Umsatz;S/H\n01.02.2024;12,50;S\n02.02.2024;99,00;H\n',
      'Umsatz',
      'S/H',
      ['S'],
    ],
    [
      'Swedbank LT D/K (kreditas)',
      'Date,Amount,Currency,D/K\n2014-10-01,15.31,LTL,D\n2014-10-02,9.40,LTL,K\n',
      'Amount',
      'D/K',
      ['D'],
    ],
    ['DR/CR', 'Date,Amount,DrCr\n2024-02-01,12.50,DR\n2024-02-02,99.00,CR\n', 'Amount', 'DrCr', ['DR']],
    [
      'Mint debit/credit',
      'Date,Description,Amount,Transaction Type\n1/02/2024,Coffee,3.50,debit\n1/03/2024,Pay,2500.00,credit\n',
      'Amount',
      'Transaction Type',
      ['debit'],
    ],
    [
      'Spanish Cargo/Abono',
      'Fecha;Importe;Tipo\n01/02/2024;12,50;Cargo\n02/02/2024;9,00;Abono\n',
      'Importe',
      'Tipo',
      ['Cargo'],
    ],
    [
      'Swedish Uttag/Insättning',
      'Datum;Typ;Belopp\n2024-02-01;Uttag;12,50\n2024-02-02;Insättning;9,00\n',
      'Belopp',
      'Typ',
      ['Uttag'],
    ],
    [
      'only money in, under a direction name',
      'Date,Amount,Af Bij\n2024-02-01,12.50,Bij\n',
      'Amount',
      'Af Bij',
      ['Af'],
    ],
  ])('%s', (_name, csv, amountColumn, direction, negative) => {
    const d = csv.split('\n')[0].includes(';') ? ';' : ',';
    expect(infer(csv, d)[amountColumn]).toMatchObject({
      kind: 'amount',
      sign: { column: direction, negative },
    });
  });

  it('leaves signed amounts, balances and look-alike columns alone', () => {
    // already signed: the direction adds nothing
    expect(infer('Date,Amount,Type\n2024-02-01,-12.50,D\n2024-02-02,99.00,C\n').Amount).toEqual({
      kind: 'number',
      decimalSeparator: '.',
    });
    // the balance is not the amount the direction signs
    const t = infer('Date,Af Bij,Bedrag,Saldo\n2024-02-01,Af,12.50,100.00\n2024-02-02,Bij,9.00,109.00\n');
    expect(t.Bedrag).toMatchObject({ sign: { column: 'Af Bij' } });
    expect(t.Saldo).toEqual({ kind: 'number', decimalSeparator: '.' });
    // one side only, under a name that says nothing: no guess
    expect(infer('Date,Amount,Class\n2024-02-01,12.50,C\n2024-02-02,9.00,C\n').Amount).toEqual({
      kind: 'number',
      decimalSeparator: '.',
    });
  });

  it('pairs Af and Bij (and other languages) as debit and credit columns', () => {
    const t = infer('Datum;Af;Bij\n01-02-2024;12,50;\n02-02-2024;;9,00\n', ';');
    expect(t.Af).toEqual({ kind: 'debitCredit', debitColumn: 'Af', creditColumn: 'Bij', decimals: 2 });
    const de = infer('Datum;Lastschrift;Gutschrift\n01.02.2024;12,50;\n', ';');
    expect(de.Lastschrift).toMatchObject({ kind: 'debitCredit', debitColumn: 'Lastschrift' });
    const it = infer('Data;Dare;Avere\n01/02/2024;12,50;\n', ';');
    expect(it.Avere).toMatchObject({ kind: 'debitCredit', creditColumn: 'Avere' });
  });
});

describe('date order from every hint the file gives', () => {
  /** The upload's inferred pattern and the run's reading (with its column note) of column `date`. */
  async function both(csv: string, date: string, d = ',') {
    const t = table(csv, d);
    const inferred = inferColumnTransforms(t.headers, t.rows, { delimiter: d })[t.headers.indexOf(date)];
    const r = await run(
      csv,
      ['D'],
      [
        {
          templateColumn: 'D',
          dataColumn: date,
          transform: { kind: 'date', input: 'auto', output: 'YYYY-MM-DD' },
        },
      ],
    );
    const note = r.stats.warnings.find((w) => w.row === 0)?.reason ?? '';
    return { inferred: (inferred as { input?: string } | null)?.input, first: r.lines[0], note };
  }

  it.each([
    [
      'a Currency column of GBP (Monzo)',
      'Transaction ID,Date,Name,Amount,Currency\ntx_1,10/08/2024,Tesco,-12.50,GBP\ntx_2,11/08/2024,Pret,-3.10,GBP\n',
      'Date',
      ',',
      'DD/MM/YYYY',
      '2024-08-10',
      'because the Currency column holds GBP.',
    ],
    [
      'codes beside the amounts',
      'Date,Amount\n03/04/2024,12.50 CHF\n04/05/2024,CHF 3.00\n',
      'Date',
      ',',
      'DD/MM/YYYY',
      '2024-04-03',
      'because the Amount column holds CHF.',
    ],
    [
      'USD month-first',
      'Date,Amount,Currency\n03/04/2024,12.50,USD\n04/05/2024,3.00,USD\n',
      'Date',
      ',',
      'MM/DD/YYYY',
      '2024-03-04',
      'because the Currency column holds USD.',
    ],
    [
      'another date column',
      'Booking Date,Value Date,Amount\n01/02/2024,25/01/2024,1.00\n02/02/2024,03/02/2024,2.00\n',
      'Booking Date',
      ',',
      'DD/MM/YYYY',
      '2024-02-01',
      'because the Value Date column holds 25/01/2024.',
    ],
    [
      'a decimal comma',
      'Date|Amount\n01/02/2024|12,50\n02/02/2024|3,10\n',
      'Date',
      '|',
      'DD/MM/YYYY',
      '2024-02-01',
      'because the Amount column writes amounts with a decimal comma (12,50).',
    ],
    [
      'a semicolon delimiter',
      'Date;Amount\n01/02/2024;12\n02/02/2024;3\n',
      'Date',
      ';',
      'DD/MM/YYYY',
      '2024-02-01',
      'because the file is separated by semicolons.',
    ],
  ])(
    '%s: the upload and the run agree, and the note names the hint',
    async (_n, csv, date, d, pattern, first, why) => {
      const r = await both(csv, date, d);
      expect(r.inferred).toBe(pattern);
      expect(r.first).toBe(first);
      expect(r.note).toBe(
        `Every date in the column could be day-first or month-first; read as ${
          pattern.startsWith('DD') ? 'day-first (DD/MM)' : 'month-first (MM/DD)'
        } ${why}`,
      );
    },
  );

  it('CAD and a bare $ do not vote: nothing tells, so month-first, said as such', async () => {
    const r = await both('Date,Amount,Currency\n01/02/2024,$12.50,CAD\n', 'Date');
    expect(r.inferred).toBe('auto');
    expect(r.first).toBe('2024-01-02');
    expect(r.note).toMatch(/read as month-first \(MM\/DD\): nothing else in the file tells the order/);
  });

  it('the column’s own unambiguous dates still decide over every hint', async () => {
    const r = await both('Date,Amount,Currency\n01/02/2024,1.00,GBP\n12/31/2024,2.00,GBP\n', 'Date');
    expect(r.inferred).toBe('MM/DD/YYYY');
    expect(r.first).toBe('2024-01-02');
    expect(r.note).toBe('');
  });
});

describe('with a second thread', () => {
  /** The file in 32 KB chunks; after the first 192 KB (sniff, header, inference) it waits for the worker. */
  async function* chunks(data: Buffer, waitForWorker: boolean): AsyncGenerator<Buffer> {
    const target = parallelCounters.ready + 1;
    for (let i = 0; i < data.length; i += 32 * 1024) {
      if (waitForWorker && i >= 192 * 1024) {
        const t0 = Date.now();
        while (parallelCounters.ready < target && Date.now() - t0 < 30_000)
          await new Promise((r) => setTimeout(r, 5));
      }
      yield data.subarray(i, i + 32 * 1024);
    }
  }

  it('signs, flips and warns exactly as one thread does', async () => {
    const lines = ['Date,Af Bij,Bedrag,Debit Amount,Credit Amount'];
    for (let i = 0; i < 40_000; i++) {
      const day = String((i % 12) + 1).padStart(2, '0');
      const out = i % 3 === 0;
      const amount = `${i % 997}.${String(i % 100).padStart(2, '0')}`;
      lines.push(
        `${day}/03/2024,${out ? 'Af' : i % 7 === 0 ? '' : 'bij'},${amount},${out ? amount : ''},${out ? '' : amount}`,
      );
    }
    const data = Buffer.from(lines.join('\n') + '\n');
    const mappings: MappingPair[] = [
      { templateColumn: 'Date', dataColumn: 'Date', transform: { kind: 'date', output: 'YYYY-MM-DD' } },
      {
        templateColumn: 'Amount',
        dataColumn: 'Bedrag',
        transform: { kind: 'amount', sign: { column: 'Af Bij', negative: ['af'] }, invert: true },
      },
      { templateColumn: 'In', dataColumn: 'Credit Amount', transform: { kind: 'amount' } },
    ];
    const mapWith = async (threads: number) => {
      const hits = parallelCounters.hits;
      const { output, stats } = applyMapping(chunks(data, threads > 1), ['Date', 'Amount', 'In'], mappings, {
        threads,
        maxWarnings: 100_000,
        inferenceRows: 300, // the profile's sample fits in the chunks sent before the worker is waited for
      });
      const parts: Buffer[] = [];
      for await (const c of output) parts.push(c as Buffer);
      return { bytes: Buffer.concat(parts), stats: await stats, hits: parallelCounters.hits - hits };
    };
    const one = await mapWith(1);
    const two = await mapWith(2);
    expect(two.hits).toBeGreaterThan(0);
    expect(two.bytes.equals(one.bytes)).toBe(true);
    expect(two.stats).toEqual(one.stats);
    // (nothing tells the dates' order: month-first) row 1 is money out ("Af", flipped to positive); row 2
    // money in, flipped; the debit rows warn under In
    expect(one.bytes.toString('utf8', 0, 80).split('\r\n').slice(1, 3)).toEqual([
      '2024-01-03,0.00,',
      '2024-02-03,-1.01,1.01',
    ]);
    // the Date note, then every third row (the debit rows: 13,334 of 40,000)
    expect(one.stats.warningCount).toBe(1 + 13_334);
    expect(one.stats.warnings[0]).toMatchObject({ row: 0, column: 'Date' });
    expect(one.stats.warnings[2]).toMatchObject({ row: 4, column: 'In', value: '' });
  });
});
