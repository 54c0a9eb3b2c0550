// The suggester's lexicon: the meanings a column header can have (a field of a bank statement, a contact
// list or a product catalogue) and the words people use for each in English, German, French, Dutch,
// Spanish, Italian, Portuguese and Swedish. Kept as data: one meaning per entry, split where meanings differ
// (company ≠ person name, state ≠ country, cost ≠ price, value date ≠ amount). A phrase may sit in several
// meanings only when they belong to different kinds of file ("name" is a person in a contact list, a product
// in a catalogue, the other party in a bank statement); the file's kind decides.

import { BANK_MEANINGS } from './lexicon-bank';
import { PEOPLE_MEANINGS } from './lexicon-people';
import { PLACE_MEANINGS } from './lexicon-places';
import { PRODUCT_MEANINGS } from './lexicon-products';

export type Lang = 'en' | 'de' | 'fr' | 'nl' | 'es' | 'it' | 'pt' | 'sv';
export const LANGUAGE_NAMES: Record<Lang, string> = {
  en: 'English',
  de: 'German',
  fr: 'French',
  nl: 'Dutch',
  es: 'Spanish',
  it: 'Italian',
  pt: 'Portuguese',
  sv: 'Swedish',
};

/** What a kind of file holds: a bank/card/payment statement, a contact list, a product catalogue. */
export type FileKind = 'bank' | 'contacts' | 'products';

/** What a column's values look like when it holds this meaning. */
export type ValueKind =
  | 'date'
  | 'amount'
  | 'number'
  | 'email'
  | 'phone'
  | 'url'
  | 'image'
  | 'country'
  | 'state'
  | 'boolean'
  | 'text'
  | 'longText'
  | 'code'
  | 'any';

export interface Meaning {
  id: string;
  /** For people, in reasons: "'Betrag' means Amount (German)". */
  label: string;
  values: ValueKind;
  /** The kind of file it belongs to; none = any. */
  kind?: FileKind;
  /** Words per language, '|'-separated, written naturally (normalised on load). */
  words: Partial<Record<Lang, string>>;
}

/** Phrases that alone say too little: they match only a whole header, or with a qualifier listed here. */
const GENERIC_WORDS: Record<string, string> = {
  name: 'customer|client|contact|full|display|person|member|user|account|holder',
  status: 'product|post|item|variant|publication|publish|listing',
  description: 'transaction|booking|product|item|long|full|payment|operation',
  address:
    'street|billing|shipping|postal|mailing|home|business|work|full|primary|customer|contact|formatted|main|default|physical|delivery|invoice|line',
  type: 'transaction|product|item|booking|payment|operation',
  value: 'transaction',
  number: '',
  code: 'product|item|article',
  date: 'transaction|booking|posting|posted|trade|entry|completed|started|payment|operation|txn|trans|statement|processed|settlement|settled',
  datum: 'transaktions|buchungs|umsatz',
  title: 'product|item|post|listing',
  online: '',
  available: '',
  visibility: '',
  active: '',
  total: 'transaction',
  sum: '',
  net: '',
  id: 'record|contact|customer|product|item|object|external|unique|internal|post',
  in: '',
  out: '',
  nr: '',
  nummer: '',
  af: '',
  bij: '',
  home: '',
  work: '',
  first: '',
  last: '',
  from: '',
  to: '',
  text: 'booking|transaction|payment',
  tipo: '',
  typ: '',
  art: '',
  data: '',
  nome: '',
  nom: '',
  nombre: '',
  naam: '',
  namn: '',
  card: '',
  sale: '',
  web: '',
  site: '',
  link: '',
  item: '',
  product: '',
  kind: '',
  limit: '',
  terms: '',
  details: 'transaction|payment|booking',
  // variant attributes name an option only alone ("Size"), not inside other names ("media_file_size")
  size: 'product|variant|item|option',
  color: 'product|variant|item|option',
  colour: 'product|variant|item|option',
  material: 'product|variant|item|option',
  style: 'product|variant|item|option',
  taille: '',
  grosse: '',
  farbe: '',
  couleur: '',
  maat: '',
  kleur: '',
  talla: '',
  tamano: '',
  taglia: '',
  colore: '',
  tamanho: '',
  cor: '',
  storlek: '',
  farg: '',
};
export const GENERIC: Record<string, readonly string[]> = Object.fromEntries(
  Object.entries(GENERIC_WORDS).map(([k, v]) => [k, v === '' ? [] : v.split('|')]),
);

/** Words that qualify any meaning without changing it ("Customer Email", "Billing City"). */
export const CONTEXT_QUALIFIERS: ReadonlySet<string> = new Set(
  'customer client contact product item variant primary main default billing shipping home business work personal private transaction booking posting payment your my person member user delivery invoice postal mailing kunden produkt artikel article line full'.split(
    ' ',
  ),
);

/** Tokens that say nothing about the meaning: currencies, units, articles, markup names, numbering. */
export const NOISE: ReadonlySet<string> = new Set(
  'eur usd gbp chf sek nok dkk pln aud cad nzd jpy inr zar g kg lb lbs oz html in the of de du la le l der die das des van het del di da do och en y e et und and or a value optional required text yyyy mm dd ddmmyyyy local original if any applicable currency euros euro dollars pounds for'.split(
    ' ',
  ),
);

export const MEANINGS: readonly Meaning[] = [
  ...BANK_MEANINGS,
  ...PEOPLE_MEANINGS,
  ...PLACE_MEANINGS,
  ...PRODUCT_MEANINGS,
];

/** Template meaning ← data meaning: how well a column of the second kind fills the first (0–1). */
export const RELATED: readonly (readonly [string, string, number])[] = [
  ['date', 'bookingDate', 0.97],
  ['bookingDate', 'date', 0.97],
  ['date', 'valueDate', 0.75],
  ['date', 'created', 0.6],
  ['bookingDate', 'created', 0.6],
  ['bookingDate', 'valueDate', 0.75],
  ['valueDate', 'date', 0.6],
  ['description', 'counterparty', 0.9],
  ['description', 'purpose', 0.85],
  ['description', 'notes', 0.62],
  ['description', 'transactionType', 0.5],
  ['description', 'body', 0.7],
  ['counterparty', 'description', 0.6],
  ['notes', 'description', 0.45],
  ['notes', 'purpose', 0.8],
  ['amount', 'grossAmount', 0.9],
  ['amount', 'netAmount', 0.8],
  ['fullName', 'contactName', 0.85],
  ['contactName', 'fullName', 0.9],
  ['supplier', 'company', 0.85],
  ['company', 'supplier', 0.8],
  ['email', 'email2', 0.7],
  ['phone', 'mobile', 0.9],
  ['phone', 'workPhone', 0.82],
  ['phone', 'homePhone', 0.8],
  ['mobile', 'phone', 0.75],
  ['workPhone', 'phone', 0.75],
  ['homePhone', 'phone', 0.7],
  ['phone', 'otherPhone', 0.6],
  ['address', 'street', 0.9],
  ['address', 'addressLine1', 0.9],
  ['addressLine1', 'address', 0.92],
  ['addressLine1', 'street', 0.9],
  ['street', 'addressLine1', 0.9],
  ['street', 'address', 0.88],
  ['state', 'stateCode', 0.85],
  ['stateCode', 'state', 0.8],
  ['country', 'countryCode', 0.9],
  ['countryCode', 'country', 0.85],
  ['body', 'shortDescription', 0.72],
  ['body', 'description', 0.8],
  ['shortDescription', 'body', 0.6],
  ['price', 'salePrice', 0.7],
  ['price', 'cost', 0.62],
  ['comparePrice', 'price', 0.4],
  ['handle', 'id', 0.45],
  ['sku', 'barcode', 0.55],
  ['sku', 'id', 0.5],
  ['productType', 'category', 0.9],
  ['category', 'productType', 0.85],
  ['category', 'taxonomyCategory', 0.7],
  ['productType', 'taxonomyCategory', 0.6],
  ['weight', 'grams', 0.9],
  ['vendor', 'supplier', 0.6],
  ['optionValue', 'variantAttribute', 0.85],
  ['image', 'variantImage', 0.8],
  ['website', 'productUrl', 0.8],
  ['notes', 'shortDescription', 0.4],
  ['title', 'seoTitle', 0.5],
  ['reference', 'id', 0.8],
  ['reference', 'documentNumber', 0.8],
];

/** Lower case, accents removed, camelCase and letter–digit runs split, punctuation to spaces, squeezed. */
export function normaliseHeader(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/[øØ]/g, 'o')
    .replace(/[æÆ]/g, 'ae')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Like normaliseHeader, with letters and digits apart ("option1" → "option 1"), as phrases are matched. */
export function headerTokens(s: string): string[] {
  const n = normaliseHeader(s)
    .replace(/([a-z])(\d)/g, '$1 $2')
    .replace(/(\d)([a-z])/g, '$1 $2');
  return n === '' ? [] : n.split(' ');
}

export interface LexiconEntry {
  meaning: Meaning;
  lang: Lang;
}

let phraseIndex: Map<string, LexiconEntry[]> | null = null;

/** Phrase (tokens joined by spaces) → the meanings it has, each with the language it was listed in. */
export function lexiconPhrases(): Map<string, LexiconEntry[]> {
  if (phraseIndex) return phraseIndex;
  const index = new Map<string, LexiconEntry[]>();
  for (const meaning of MEANINGS) {
    for (const [lang, list] of Object.entries(meaning.words) as [Lang, string][]) {
      for (const word of list.split('|')) {
        const key = headerTokens(word).join(' ');
        if (key === '') continue;
        const entries = index.get(key) ?? [];
        if (!entries.some((e) => e.meaning === meaning)) entries.push({ meaning, lang });
        index.set(key, entries);
      }
    }
  }
  phraseIndex = index;
  return index;
}

export function meaningById(id: string): Meaning | undefined {
  return MEANINGS.find((m) => m.id === id);
}

let relatedIndex: Map<string, number> | null = null;

/** How well data meaning `d` fills template meaning `t`: 1 when the same, 0 when unrelated. */
export function relatedWeight(t: string, d: string): number {
  if (t === d) return 1;
  if (!relatedIndex) relatedIndex = new Map(RELATED.map(([a, b, w]) => [`${a}\u0000${b}`, w]));
  return relatedIndex.get(`${t}\u0000${d}`) ?? 0;
}
