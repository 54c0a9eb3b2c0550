import { parseCsv } from './parse';
import { sniff } from './sniff';
import { CsvEngineError } from './errors';

// Header rows as real exports write them (issue 26's repros): read through parseCsv, the reader every
// entry point uses, so the header, the rows kept and the ragged count are what an upload would see.
describe('header row detection', () => {
  it('reads a header that ends with the delimiter over rows that do not (Lloyds, PrestaShop)', () => {
    const r = parseCsv('Date,Description,Amount,\n01/02/2024,Coffee,-3.50\n02/02/2024,Salary,1000.00\n');
    expect(r.info.headerRow).toBe(1);
    expect(r.headers).toEqual(['Date', 'Description', 'Amount']);
    expect(r.rows).toEqual([
      ['01/02/2024', 'Coffee', '-3.50'],
      ['02/02/2024', 'Salary', '1000.00'],
    ]);
    expect(r.ragged).toEqual([]);
  });

  it('reads rows that end with the delimiter under a header that does not, without calling them ragged', () => {
    const r = parseCsv('Name,Amount\nAlice,10,\nBob,20,\n');
    expect(r.headers).toEqual(['Name', 'Amount']);
    expect(r.rows).toEqual([
      ['Alice', '10'],
      ['Bob', '20'],
    ]);
    expect(r.ragged).toEqual([]);
  });

  it('skips a title line as wide as the data', () => {
    const r = parseCsv(
      'BANK EXPORT;;\nDate;Description;Amount\n2024-01-01;Coffee;-3,50\n2024-01-02;Tea;-2,10\n',
    );
    expect(r.info).toMatchObject({ delimiter: ';', headerRow: 2, skippedLines: 1 });
    expect(r.headers).toEqual(['Date', 'Description', 'Amount']);
    expect(r.rows).toHaveLength(2);
  });

  it('skips a long preamble: account block, blank lines and a sentence (ING Germany), header on record 13', () => {
    const preamble = [
      'Umsatzanzeige;Datei erstellt am: 25.05.2023 12:00',
      ';Letztes Update: aktuell',
      '',
      'IBAN;DE12 3456 7890 1234 5678 90',
      'Kontoname;Girokonto',
      'Bank;ING',
      'Kunde;Max Mustermann',
      'Zeitraum;01.04.2023 - 25.05.2023',
      'Saldo;1.234,56;EUR',
      '',
      'Sortierung;Datum absteigend',
      '',
      'In der CSV-Datei finden Sie alle bereits gebuchten Umsätze. Die vorgemerkten Umsätze werden nicht aufgenommen.',
      '',
      'Buchung;Valuta;Auftraggeber/Empfänger;Buchungstext;Verwendungszweck;Saldo;Währung;Betrag;Währung',
      '25.05.2023;25.05.2023;XYZ GmbH;Lastschrift;Rechnung 123;1.234,56;EUR;-12,34;EUR',
      '24.05.2023;24.05.2023;ABC;Gutschrift;Gehalt;1.246,90;EUR;2.000,00;EUR',
    ];
    const r = parseCsv(preamble.join('\n') + '\n');
    expect(r.info).toMatchObject({ delimiter: ';', headerRow: 15, skippedLines: 14 });
    expect(r.headers.slice(0, 3)).toEqual(['Buchung', 'Valuta', 'Auftraggeber/Empfänger']);
    expect(r.rows).toHaveLength(2);
  });

  it('finds a header far down: 60 lines of notes above the table', () => {
    const notes = Array.from({ length: 60 }, (_, k) => `Note ${k + 1},see the terms`).join('\n');
    const rows = [
      '2024-03-01,Shop,Food,-9.99',
      '2024-03-02,Work,Pay,100.00',
      '2024-03-04,Cafe,Tea,-2.10',
      '2024-03-05,Bus,Fare,-1.50',
    ];
    const r = parseCsv(`${notes}\nDate,Payee,Memo,Amount\n${rows.join('\n')}\n`);
    expect(r.info.headerRow).toBe(61);
    expect(r.headers).toEqual(['Date', 'Payee', 'Memo', 'Amount']);
  });

  it('decides there is no header row when the first record reads like the rest (Wells Fargo, ASN Bank)', () => {
    const wells =
      '"01/31/2024","-12.50","*","","PURCHASE AUTHORIZED ON 01/30 STARBUCKS"\n' +
      '"01/30/2024","2500.00","*","","PAYROLL ACME"\n"01/29/2024","-40.00","*","","ATM WITHDRAWAL"\n';
    const r = parseCsv(wells);
    expect(r.info).toMatchObject({ headerRow: 0, skippedLines: 0 });
    expect(r.headers).toEqual(['Column 1', 'Column 2', 'Column 3', 'Column 4', 'Column 5']);
    expect(r.rows).toHaveLength(3);
    expect(r.rows[0][0]).toBe('01/31/2024');
    const asn =
      '01-02-2024,NL01ASNB0123456789,NL02INGB0001234567,J. Jansen,,,,EUR,1000.00,EUR,-12.50,01-02-2024\n' +
      '02-02-2024,NL01ASNB0123456789,NL03RABO0123456789,Supermarkt,,,,EUR,987.50,EUR,-30.00,02-02-2024\n';
    expect(parseCsv(asn).info.headerRow).toBe(0);
    expect(parseCsv(asn).rows).toHaveLength(2);
  });

  it('finds no header in a file whose debit or credit side is often empty (Targobank)', () => {
    const rows = [
      '03.11.2025;Lastschrift BANK AG DE35000000000000000000 Visa ABRECHNUNG VOM 23 10 25;-5,00;;;;x',
      '04.11.2025;Entgelt Kontoführung für Oktober 2025;-6,95;;;;x',
      '05.11.2025;Lastschrift DLS GmbH Kd 36910380 Wir sagen Danke;-102,39;;;;x',
      '10.11.2025;Gutschrift TEAG Strom;;83,16;;;x',
      '11.11.2025;Kartenzahlung SCORE-SB-STATION;-53,00;;;;x',
    ];
    const r = parseCsv(rows.join('\n') + '\n');
    expect(r.info).toMatchObject({ headerRow: 0, delimiter: ';' });
    expect(r.rows).toHaveLength(5);
  });

  it('keeps a header over rows of text only (contacts) and a header alone (a template)', () => {
    expect(
      parseCsv('First Name,Last Name,Company\nAda,Lovelace,Analytical\nAlan,Turing,Bletchley\n').info
        .headerRow,
    ).toBe(1);
    expect(parseCsv('Handle,Title,Body (HTML),Variant Price\n').headers).toEqual([
      'Handle',
      'Title',
      'Body (HTML)',
      'Variant Price',
    ]);
  });

  it('headerRow 0 reads every record as data', () => {
    const r = parseCsv('Date,Amount\n2024-01-01,5\n', { headerRow: 0 });
    expect(r.headers).toEqual(['Column 1', 'Column 2']);
    expect(r.rows).toEqual([
      ['Date', 'Amount'],
      ['2024-01-01', '5'],
    ]);
  });

  it('lets the real parse report an unclosed quote in the first record instead of sniffing it away', () => {
    for (const text of ['id,"name,amount\n1,Bob,3\n', 'a,"\n']) {
      let err: unknown;
      try {
        parseCsv(text);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CsvEngineError);
      expect((err as CsvEngineError).code).toBe('UNTERMINATED_QUOTE');
      expect((err as CsvEngineError).message).toContain('line 1');
    }
    expect(sniff(Buffer.from('id,"name,amount\n1,Bob,3\n'), true).delimiter).toBe(',');
  });
});

describe('sniff of the same bytes twice (a profiling pass, then the run)', () => {
  it('answers the same, keeps no link to an answer given out, and tells other bytes and options apart', () => {
    const semi = Buffer.from('Datum;Betrag\n01.02.2024;3,50\n02.02.2024;1.000,00\n');
    const first = sniff(semi, true);
    expect(first).toEqual({ delimiter: ';', headerLine: 1, columns: 2 });
    first.delimiter = ',';
    expect(sniff(Buffer.from(semi), true)).toEqual({ delimiter: ';', headerLine: 1, columns: 2 });
    expect(sniff(semi, true, { delimiter: ',' }).delimiter).toBe(',');
    expect(sniff(semi, true, { headerRow: 2 }).headerLine).toBe(2);
    const comma = Buffer.from('Date,Amount\n01/02/2024,3.50\n');
    expect(sniff(comma, true)).toEqual({ delimiter: ',', headerLine: 1, columns: 2 });
    expect(sniff(semi, true).delimiter).toBe(';');
  });
});
