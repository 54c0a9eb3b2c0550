// Auto-mapping suggester: proposes which data column feeds which template column, with a confidence 0–1.
// Names are normalised (case, spaces, punctuation, accents, camelCase), matched exactly, through a synonym
// table, and by string similarity; sample values can confirm a guess. A data column is never used twice.

import { findBuiltInTemplate, type TemplateTransform } from './templates';

export interface MappingSuggestion {
  templateColumn: string;
  dataColumn: string;
  /** 0–1. 1 = same name; ~0.9 = synonyms; lower = similar spelling. */
  confidence: number;
  reason: 'exact' | 'synonym' | 'similar';
  /** The data column's inferred transform (the upload answer's `columns[].inferred`), when given. */
  transform?: SuggestedTransform;
}

/**
 * A transform as the engine's column inference suggests it (structurally the contract's `Transform`; this
 * library stays free of imports). A `debitCredit` one names the two columns it reads.
 */
export type SuggestedTransform =
  | { kind: 'date'; input?: string; output: string }
  | {
      kind: 'number';
      decimalSeparator?: 'auto' | '.' | ',';
      decimals?: number;
      sign?: SignFromColumn;
      invert?: boolean;
    }
  | {
      kind: 'amount';
      decimals?: number;
      negative?: 'minus' | 'parentheses';
      decimalSeparator?: 'auto' | '.' | ',';
      sign?: SignFromColumn;
      invert?: boolean;
    }
  | { kind: 'boolean'; output: [string, string] }
  | {
      kind: 'debitCredit';
      debitColumn: string;
      creditColumn: string;
      sign?: 'creditPositive' | 'debitPositive';
      decimals?: number;
    }
  | { kind: 'constant'; value: string }
  | { kind: 'combine'; pattern: string }
  | { kind: 'coalesce'; columns: string[] }
  | { kind: 'trim' | 'upper' | 'lower' | 'slug' }
  | { kind: 'truncate'; length: number };

/** A direction column that gives an amount its sign (rows whose cell is one of `negative` are money out). */
export interface SignFromColumn {
  column: string;
  negative: string[];
}

export interface SuggestOptions {
  /** Sample values per data column (e.g. inspect's first rows), used to confirm guesses. */
  samples?: Record<string, readonly string[]>;
  /** Suggestions below this are dropped. Default 0.6. */
  minConfidence?: number;
  /**
   * Each data column's inferred transform (the upload answer's `columns`): a suggested pair carries it as
   * its transform. A debit/credit pair also feeds a template amount column no single column matched.
   */
  inferred?: Record<string, SuggestedTransform | null | undefined>;
}

/** Groups of names that mean the same thing in the files people export. */
const SYNONYMS: readonly (readonly string[])[] = [
  [
    'email',
    'e mail',
    'email address',
    'e mail address',
    'mail',
    'emailadresse',
    'courriel',
    'correo',
    'contact email',
    'customer email',
  ],
  [
    'phone',
    'telephone',
    'tel',
    'phone number',
    'mobile',
    'cell',
    'telefon',
    'telefonnummer',
    'contact phone',
    'phone no',
  ],
  ['fax', 'fax number', 'telefax'],
  [
    'name',
    'full name',
    'customer name',
    'customer',
    'client',
    'client name',
    'kunde',
    'kundenname',
    'display name',
    'company',
  ],
  ['vendor name', 'supplier', 'supplier name', 'lieferant', 'vendor company', 'payee name'],
  ['contact name', 'contact', 'contact person', 'ansprechpartner', 'primary contact'],
  [
    'title',
    'product name',
    'product title',
    'item name',
    'product',
    'artikel',
    'artikelname',
    'bezeichnung',
    'name',
  ],
  [
    'body html',
    'body',
    'description html',
    'product description',
    'long description',
    'beschreibung',
    'html description',
  ],
  [
    'description',
    'details',
    'transaction details',
    'narrative',
    'verwendungszweck',
    'buchungstext',
    'booking text',
    'libelle',
    'memo',
    'payee',
    'particulars',
  ],
  ['memo', 'note', 'notes', 'comment', 'comments', 'remarks', 'bemerkung', 'notiz'],
  [
    'amount',
    'value',
    'betrag',
    'sum',
    'total',
    'transaction amount',
    'umsatz',
    'montant',
    'importe',
    'net amount',
  ],
  [
    'variant price',
    'price',
    'unit price',
    'sales price',
    'selling price',
    'retail price',
    'cost price',
    'cost',
    'preis',
    'verkaufspreis',
    'vk preis',
  ],
  [
    'variant compare at price',
    'compare at price',
    'msrp',
    'rrp',
    'list price',
    'original price',
    'uvp',
    'was price',
    'regular price',
  ],
  [
    'variant inventory qty',
    'qty',
    'quantity',
    'stock',
    'inventory',
    'stock qty',
    'stock quantity',
    'inventory qty',
    'on hand',
    'menge',
    'bestand',
    'lagerbestand',
    'units',
  ],
  [
    'variant sku',
    'sku',
    'item id',
    'article number',
    'item number',
    'item no',
    'product code',
    'item code',
    'artikelnummer',
    'art nr',
    'part number',
  ],
  ['handle', 'slug', 'url handle', 'product id', 'item id', 'permalink'],
  [
    'date',
    'booking date',
    'transaction date',
    'buchungstag',
    'buchungsdatum',
    'datum',
    'value date',
    'valuta',
    'posting date',
    'date posted',
    'fecha',
    'wertstellung',
  ],
  [
    'reference number',
    'reference',
    'ref',
    'ref no',
    'transaction id',
    'check number',
    'cheque number',
    'referenz',
    'invoice number',
    'receipt number',
  ],
  ['account', 'account name', 'account number', 'konto', 'iban', 'kontonummer', 'bank account'],
  ['vendor', 'brand', 'manufacturer', 'hersteller', 'marke', 'make'],
  ['type', 'product type', 'kind', 'produkttyp'],
  ['product category', 'category', 'kategorie', 'collection', 'department'],
  ['tags', 'keywords', 'labels', 'schlagworte'],
  ['published', 'visible', 'online', 'is published', 'veroeffentlicht', 'published on online store'],
  ['status', 'availability', 'product status'],
  ['option1 name', 'option name', 'variant name', 'attribute name', 'attribute 1 name'],
  [
    'option1 value',
    'option value',
    'variant value',
    'size',
    'color',
    'colour',
    'attribute value',
    'attribute 1 value',
  ],
  ['variant grams', 'grams', 'weight', 'weight g', 'gewicht', 'weight grams'],
  ['image src', 'image', 'image url', 'picture', 'photo', 'bild', 'image link', 'images', 'main image'],
  [
    'address',
    'street',
    'street address',
    'address line 1',
    'address 1',
    'strasse',
    'adresse',
    'billing address',
    'address1',
  ],
  ['city', 'town', 'ort', 'stadt', 'ville', 'billing city'],
  ['state', 'province', 'region', 'county', 'bundesland', 'state province'],
  ['zip', 'zip code', 'postal code', 'postcode', 'plz', 'postleitzahl', 'post code', 'zipcode'],
  ['payment terms', 'terms', 'zahlungsbedingungen', 'net terms', 'zahlungsziel'],
  ['credit limit', 'kreditlimit', 'credit line', 'limit'],
  [
    'tax id',
    'tax number',
    'vat',
    'vat id',
    'vat number',
    'ein',
    'tin',
    'ust id',
    'steuernummer',
    'ustid',
    'tax identification number',
  ],
  ['1099 eligible', '1099', 'track 1099', 'is 1099', '1099 vendor'],
  ['first name', 'firstname', 'given name', 'vorname', 'prenom'],
  ['last name', 'lastname', 'surname', 'family name', 'nachname', 'nom'],
];

/** lower case, accents removed, camelCase split, punctuation to spaces, '&' → 'and', squeezed. */
export function normaliseHeader(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const compact = (n: string): string => n.replace(/ /g, '');

/** Phrase (compact form) → synonym group indexes. */
const PHRASES = new Map<string, number[]>();
SYNONYMS.forEach((group, g) => {
  for (const p of group) {
    const key = compact(normaliseHeader(p));
    PHRASES.set(key, [...(PHRASES.get(key) ?? []), g]);
  }
});

/** The synonym group of "amount": where a debit/credit pair goes. */
const AMOUNT_CONCEPT = SYNONYMS.findIndex((g) => g.includes('amount'));

interface Concepts {
  exact: Set<number>;
  partial: Set<number>;
}

function conceptsOf(norm: string): Concepts {
  const exact = new Set(PHRASES.get(compact(norm)) ?? []);
  const partial = new Set<number>();
  const tokens = norm.split(' ');
  // every contiguous token run is a candidate phrase ("customer email address" → "email address")
  for (let i = 0; i < tokens.length; i++) {
    for (let j = i + 1; j <= tokens.length; j++) {
      if (i === 0 && j === tokens.length) continue;
      for (const g of PHRASES.get(tokens.slice(i, j).join('')) ?? []) if (!exact.has(g)) partial.add(g);
    }
  }
  return { exact, partial };
}

/** Sørensen–Dice coefficient on character bigrams. */
function dice(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const grams = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const g = a.slice(i, i + 2);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  let hits = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const n = grams.get(g) ?? 0;
    if (n > 0) {
      grams.set(g, n - 1);
      hits++;
    }
  }
  return (2 * hits) / (a.length - 1 + (b.length - 1));
}

const VALUE_SHAPES: { group: string; test: RegExp }[] = [
  { group: 'email', test: /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i },
  { group: 'date', test: /^(\d{1,4}[./-]\d{1,2}[./-]\d{1,4})([ T].*)?$/ },
  { group: 'image src', test: /^https?:\/\/\S+\.(png|jpe?g|gif|webp)(\?\S*)?$/i },
  { group: 'phone', test: /^\+?[\d ()./-]{7,}$/ },
];

function groupIndex(first: string): number {
  return SYNONYMS.findIndex((g) => g[0] === first);
}

/** Which concept the sample values of a column look like, if any (≥ 80 % of non-empty values). */
function sampleConcept(values: readonly string[] | undefined): number | null {
  const v = (values ?? []).map((s) => s.trim()).filter((s) => s !== '');
  if (v.length === 0) return null;
  for (const shape of VALUE_SHAPES) {
    if (v.filter((s) => shape.test.test(s)).length >= v.length * 0.8) return groupIndex(shape.group);
  }
  return null;
}

function score(
  t: string,
  d: string,
  tc: Concepts,
  dc: Concepts,
): { confidence: number; reason: MappingSuggestion['reason'] } {
  if (t === d || compact(t) === compact(d)) return { confidence: 1, reason: 'exact' };
  let best = 0;
  for (const g of tc.exact) {
    if (dc.exact.has(g)) best = Math.max(best, 0.9);
    else if (dc.partial.has(g)) best = Math.max(best, 0.78);
  }
  for (const g of tc.partial) {
    if (dc.exact.has(g)) best = Math.max(best, 0.72);
    else if (dc.partial.has(g)) best = Math.max(best, 0.62);
  }
  if (best > 0) return { confidence: best, reason: 'synonym' };
  const sim = dice(compact(t), compact(d));
  return { confidence: Math.round(sim * 0.85 * 100) / 100, reason: 'similar' };
}

/**
 * Suggests pairs for template columns from data columns. Greedy on confidence (ties: template order, then
 * data order); each template column and each data column is used at most once.
 */
export function suggestMappings(
  templateHeaders: readonly string[],
  dataHeaders: readonly string[],
  options: SuggestOptions = {},
): MappingSuggestion[] {
  const min = options.minConfidence ?? 0.6;
  const tn = templateHeaders.map(normaliseHeader);
  const dn = dataHeaders.map(normaliseHeader);
  const tcs = tn.map(conceptsOf);
  const dcs = dn.map(conceptsOf);
  const candidates: (MappingSuggestion & { ti: number; di: number })[] = [];
  templateHeaders.forEach((t, ti) => {
    dataHeaders.forEach((d, di) => {
      const scored = score(tn[ti], dn[di], tcs[ti], dcs[di]);
      const reason = scored.reason;
      let confidence = scored.confidence;
      const shape = options.samples ? sampleConcept(options.samples[d]) : null;
      if (shape !== null && reason !== 'exact') {
        // values that look like what the template column holds confirm a guess; values that clearly are
        // something else weaken it
        if (tcs[ti].exact.has(shape) || tcs[ti].partial.has(shape))
          confidence = Math.min(0.95, Math.max(confidence, 0.6) + 0.1);
        else confidence *= 0.8;
      }
      if (confidence >= min && tn[ti] !== '' && dn[di] !== '') {
        candidates.push({
          templateColumn: t,
          dataColumn: d,
          confidence: Math.round(confidence * 100) / 100,
          reason,
          ti,
          di,
        });
      }
    });
  });
  candidates.sort((a, b) => b.confidence - a.confidence || a.ti - b.ti || a.di - b.di);
  const usedT = new Set<number>();
  const usedD = new Set<number>();
  const out: (MappingSuggestion & { ti: number })[] = [];
  for (const c of candidates) {
    if (usedT.has(c.ti) || usedD.has(c.di)) continue;
    usedT.add(c.ti);
    usedD.add(c.di);
    out.push(c);
  }
  const inferred = options.inferred ?? {};
  const pairs = new Map<string, SuggestedTransform>();
  for (const t of Object.values(inferred)) if (t?.kind === 'debitCredit') pairs.set(t.debitColumn, t);
  for (const dc of pairs.values()) {
    // Debit and credit feed one signed amount: the template's amount column, if no column took it.
    const ti = tcs.findIndex((c, i) => !usedT.has(i) && c.exact.has(AMOUNT_CONCEPT));
    const di = dataHeaders.indexOf(dc.kind === 'debitCredit' ? dc.debitColumn : '');
    if (ti < 0 || di < 0) continue;
    usedT.add(ti);
    out.push({ templateColumn: templateHeaders[ti], dataColumn: '', confidence: 0.8, reason: 'synonym', ti });
  }
  return out
    .sort((a, b) => a.ti - b.ti)
    .map(({ templateColumn, dataColumn, confidence, reason }) => {
      const transform =
        dataColumn === ''
          ? [...pairs.values()][0]
          : inferred[dataColumn]?.kind === 'debitCredit'
            ? undefined
            : (inferred[dataColumn] ?? undefined);
      return { templateColumn, dataColumn, confidence, reason, ...(transform ? { transform } : {}) };
    });
}

// ---------------------------------------------------------------------------------------------------------
// The server-side suggester (issue 27). First version: the name matcher above, plus built-in templates'
// defaults merged with the inferred transforms, debit/credit pairs kept, and optional columns left empty.

export interface SuggestInput {
  /** The template's columns, in order. */
  templateColumns: readonly string[];
  /** A built-in template's id when the template is (or was recognised as) one. */
  builtInTemplateId?: string;
  /** Rules per template column (the contract's ColumnRules shape). */
  templateRules?: Record<string, { type?: string; required?: boolean; allowed?: string[]; format?: string }>;
  /** The data file's columns and up to 200 sample values per column. */
  dataColumns: readonly string[];
  samples: Record<string, readonly string[]>;
  /** The upload answer's columns[].inferred. */
  inferred: Record<string, SuggestedTransform | null | undefined>;
}

export interface ColumnSuggestion {
  templateColumn: string;
  /** '' when the transform reads its own columns (combine, coalesce, debitCredit) or when empty. */
  dataColumn: string;
  transform?: SuggestedTransform | SuggestedTransform[];
  /** Leave the template column empty on purpose (a not-required column nothing matched). */
  empty?: true;
  /** 0–1. */
  confidence: number;
  /** One short sentence for people. */
  reason: string;
}

function steps<T>(t: T | T[] | undefined): T[] {
  return t === undefined ? [] : Array.isArray(t) ? t : [t];
}

/**
 * Merges a built-in column's default transform with the one the data's values suggest: how the data is
 * written (date input pattern, decimal separator, sign, debit/credit pair) comes from the data, the output
 * format from the template. An inferred debit/credit pair or signed amount is never replaced.
 */
export function mergeTransforms(
  template: TemplateTransform | TemplateTransform[] | undefined,
  inferred: SuggestedTransform | undefined,
): SuggestedTransform | SuggestedTransform[] | undefined {
  const tSteps = steps(template) as SuggestedTransform[];
  if (!inferred) return template as SuggestedTransform | SuggestedTransform[] | undefined;
  if (tSteps.length === 0) return inferred;
  const head = tSteps[0];
  let merged: SuggestedTransform;
  if (inferred.kind === 'debitCredit') {
    merged =
      head.kind === 'amount' && head.decimals !== undefined
        ? { ...inferred, decimals: head.decimals }
        : inferred;
  } else if (inferred.kind === 'date' && head.kind === 'date') {
    merged = { ...head, input: inferred.input ?? head.input, output: head.output };
  } else if (
    (inferred.kind === 'amount' || inferred.kind === 'number') &&
    (head.kind === 'amount' || head.kind === 'number')
  ) {
    merged = { ...inferred, ...head, kind: head.kind } as SuggestedTransform;
    const from = inferred as {
      decimalSeparator?: 'auto' | '.' | ',';
      sign?: SignFromColumn;
      invert?: boolean;
    };
    const out = merged as { decimalSeparator?: 'auto' | '.' | ','; sign?: SignFromColumn; invert?: boolean };
    if (from.decimalSeparator) out.decimalSeparator = from.decimalSeparator;
    if (from.sign) out.sign = from.sign;
    if (from.invert) out.invert = from.invert;
  } else {
    return tSteps.length === 1 ? tSteps[0] : tSteps;
  }
  const rest = tSteps.slice(1);
  return rest.length === 0 ? merged : [merged, ...rest];
}

export function suggestColumnMappings(input: SuggestInput): {
  mappings: ColumnSuggestion[];
  unmatched: string[];
} {
  const builtIn = input.builtInTemplateId ? findBuiltInTemplate(input.builtInTemplateId) : undefined;
  // Columns of an inferred debit/credit pair feed the amount as a pair, never alone (repro 6).
  const paired = new Set<string>();
  for (const t of Object.values(input.inferred))
    if (t?.kind === 'debitCredit') paired.add(t.debitColumn).add(t.creditColumn);
  const single = input.dataColumns.filter((d) => !paired.has(d));
  const pairs = suggestMappings(input.templateColumns, single, {
    samples: input.samples,
    inferred: input.inferred,
  });
  const pair = Object.values(input.inferred).find((t) => t?.kind === 'debitCredit');
  if (pair) {
    const amount = input.templateColumns.find((t) =>
      conceptsOf(normaliseHeader(t)).exact.has(AMOUNT_CONCEPT),
    );
    if (amount !== undefined) {
      const at = pairs.findIndex((p) => p.templateColumn === amount);
      if (at >= 0) pairs.splice(at, 1);
      pairs.push({
        templateColumn: amount,
        dataColumn: '',
        confidence: 0.85,
        reason: 'synonym',
        transform: pair,
      });
    }
  }
  const byColumn = new Map(pairs.map((p) => [p.templateColumn, p]));
  const mappings: ColumnSuggestion[] = [];
  const unmatched: string[] = [];
  for (const t of input.templateColumns) {
    const col = builtIn?.columns.find((c) => c.name === t);
    const p = byColumn.get(t);
    if (p) {
      const transform = mergeTransforms(col?.defaultTransform, p.transform);
      mappings.push({
        templateColumn: t,
        dataColumn: p.dataColumn,
        ...(transform ? { transform } : {}),
        confidence: p.confidence,
        reason:
          p.reason === 'exact'
            ? `'${p.dataColumn}' has the same name.`
            : p.dataColumn === ''
              ? 'The debit and credit columns make one signed amount.'
              : `'${p.dataColumn}' means ${t}.`,
      });
    } else if (col && !col.required) {
      mappings.push({
        templateColumn: t,
        dataColumn: '',
        empty: true,
        confidence: 0.5,
        reason: 'Nothing in the file matches; this column is optional, so it is left empty.',
      });
    } else unmatched.push(t);
  }
  return { mappings, unmatched };
}
