// Deterministic test data for the engine bench: 12 columns, names with commas in quotes, embedded quotes
// and newlines, DD/MM/YYYY dates and decimal-comma amounts (quoted, as a comma file must).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export const SOURCE_HEADERS = [
  'Customer ID',
  'Customer Name',
  'E-mail',
  'Phone',
  'City',
  'Country',
  'Article Number',
  'Category',
  'Booking Date',
  'Betrag',
  'Quantity',
  'Notes',
];

const FIRST = [
  'Anna',
  'Ben',
  'Chloé',
  'David',
  'Emma',
  'Fritz',
  'Grace',
  'Hugo',
  'Ines',
  'Jörg',
  'Karin',
  'Liam',
];
const LAST = [
  'Müller',
  'Smith',
  "O'Brien",
  'García',
  'Novak',
  'Dubois',
  'Rossi',
  'Jensen',
  'Kowalski',
  'Lee',
];
const CITIES = ['Berlin', 'London', 'Paris', 'Zürich', 'New York', 'São Paulo', 'Wien', 'Oslo'];
const COUNTRIES = ['DE', 'GB', 'FR', 'CH', 'US', 'BR', 'AT', 'NO'];
const CATEGORIES = ['Hardware', 'Software', 'Services', 'Office', 'Travel'];
const NOTES = [
  '',
  'Paid by card',
  'Invoice 2024/117, partial',
  'Refund requested',
  'Gift wrap',
  'Rush, ship today',
];

/**
 * The job the benches run on a generated file: the DD/MM/YYYY booking date to MM/DD/YYYY, the decimal-comma
 * Betrag as a number, and four columns copied.
 */
export const BENCH_MAPPINGS = [
  {
    templateColumn: 'Transaction Date',
    dataColumn: 'Booking Date',
    transform: { kind: 'date' as const, input: 'DD/MM/YYYY', output: 'MM/DD/YYYY' },
  },
  { templateColumn: 'Customer', dataColumn: 'Customer Name' },
  {
    templateColumn: 'Amount',
    dataColumn: 'Betrag',
    transform: { kind: 'number' as const, decimalSeparator: ',' as const },
  },
  { templateColumn: 'Email', dataColumn: 'E-mail' },
  { templateColumn: 'SKU', dataColumn: 'Article Number' },
  { templateColumn: 'Note', dataColumn: 'Notes' },
];

/** xorshift32: the same file on every run. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

function amount(cents: number): string {
  const neg = cents < 0;
  const abs = Math.abs(cents);
  const euros = Math.floor(abs / 100);
  const int = String(euros).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return (neg ? '-' : '') + int + ',' + pad2(abs % 100);
}

export function row(i: number, r: () => number): string {
  const first = FIRST[Math.floor(r() * FIRST.length)];
  const last = LAST[Math.floor(r() * LAST.length)];
  const k = r();
  let name: string;
  if (k < 0.5) name = `"${last}, ${first}"`;
  else if (k < 0.55) name = `"${first} ""${last[0]}."" ${last}"`;
  else if (k < 0.58) name = `"${first} ${last}\nc/o Accounts"`;
  else name = `${first} ${last}`;
  const email = `${first.toLowerCase().replace(/[^a-z]/g, '')}.${i}@ex.com`;
  const phone = `+44 20 ${7000 + (i % 3000)} ${1000 + (i % 9000)}`;
  const c = Math.floor(r() * CITIES.length);
  const sku = `A${100000 + Math.floor(r() * 900000)}`;
  const cat = CATEGORIES[i % CATEGORIES.length];
  const date = `${pad2(1 + Math.floor(r() * 28))}/${pad2(1 + Math.floor(r() * 12))}/${2019 + Math.floor(r() * 6)}`;
  let cents = Math.floor(r() * 500000) - 100000;
  if (cents === 0) cents = 1;
  const qty = 1 + Math.floor(r() * 40);
  const noteRaw = NOTES[i % NOTES.length];
  const note = noteRaw.includes(',') ? `"${noteRaw}"` : noteRaw;
  return `${i},${name},${email},${phone},${CITIES[c]},${COUNTRIES[c]},${sku},${cat},${date},"${amount(cents)}",${qty},${note}\r\n`;
}

/** Writes rows until `rows` rows or `bytes` bytes; returns [rows, bytes]. */
export async function generate(
  path: string,
  rows: number,
  maxBytes = Infinity,
): Promise<{ rows: number; bytes: number }> {
  const out = createWriteStream(path, { highWaterMark: 1 << 20 });
  const r = rng(20240101);
  let bytes = 0;
  let n = 0;
  let batch: string[] = [SOURCE_HEADERS.join(',') + '\r\n'];
  while (n < rows && bytes < maxBytes) {
    n++;
    batch.push(row(n, r));
    if (batch.length >= 5000) {
      const chunk = batch.join('');
      bytes += Buffer.byteLength(chunk);
      batch = [];
      if (!out.write(chunk)) await once(out, 'drain');
    }
  }
  const chunk = batch.join('');
  bytes += Buffer.byteLength(chunk);
  out.end(chunk);
  await once(out, 'finish');
  return { rows: n, bytes };
}
