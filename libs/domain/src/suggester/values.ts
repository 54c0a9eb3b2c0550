// Values as evidence: how well a column's sample values fit a kind of value, how to say so, and the
// value checks a pair's score uses (numbers, a balance column, ids).
import type { ValueKind } from '../lexicon';
import type { ValueProfile } from '../lexicon-values';
import type { SuggestedTransform } from './types';

export const RULE_VALUE_KIND: Record<string, ValueKind> = {
  date: 'date',
  amount: 'amount',
  number: 'number',
  email: 'email',
  url: 'url',
  boolean: 'boolean',
};

/** How well values of this profile fit a kind: 0 (never), about 1 (neutral), up to 1.1 (they confirm it). */
export function valueFit(kind: ValueKind, p: ValueProfile | null): number {
  if (!p) return 1;
  if (p.n === 0) return 0.85;
  const phone = p.phoneStrong + p.phoneWeak;
  switch (kind) {
    case 'date':
      return p.date >= 0.8 ? 1.08 : p.date >= 0.5 ? 0.9 : 0.25;
    case 'amount':
    case 'number':
      if (p.date >= 0.6) return 0;
      if (p.number >= 0.8) return kind === 'amount' && p.amountLike >= 0.3 ? 1.08 : 1.04;
      return p.number >= 0.5 ? 0.8 : 0.25;
    case 'email':
      return p.email >= 0.5 ? 1.1 : 0.15;
    case 'phone':
      if (phone >= 0.7) return p.phoneStrong >= 0.3 ? 1.08 : 1;
      if (p.email >= 0.5) return 0.1;
      return p.letters >= 0.5 ? 0.2 : 0.3;
    case 'url':
      return p.url >= 0.6 ? 1.08 : 0.4;
    case 'image':
      return p.image >= 0.5 ? 1.1 : p.url >= 0.6 ? 0.95 : 0.3;
    case 'country':
      if (p.countryName >= 0.6) return 1.1;
      if (p.country >= 0.7 && !(p.state > p.country && p.avgLength <= 2)) return 1.05;
      if (p.state >= 0.7) return 0.35;
      if (p.number >= 0.8 || p.date >= 0.5 || p.email >= 0.5) return 0.2;
      return 0.7;
    case 'state':
      if (p.state >= 0.6) return 1.08;
      if (p.countryName >= 0.7) return 0.35;
      if (p.number >= 0.8 || p.date >= 0.5 || p.email >= 0.5) return 0.2;
      return 1;
    case 'boolean':
      return p.boolean >= 0.8 ? 1.08 : p.distinct <= 3 ? 0.8 : 0.35;
    case 'text':
    case 'longText': {
      if (p.date >= 0.8) return 0.3;
      if (p.number >= 0.9) return 0.35;
      if (p.email >= 0.8) return 0.3;
      if (p.url >= 0.8) return 0.5;
      if (kind === 'text') return 1;
      // a description varies from row to row; one repeated value is a label, not a description
      // one short value repeated, or a handful of them over many rows, is a type or a status (long
      // text stays a description even when repeated)
      const label = p.avgLength < 40 && p.html < 0.5;
      if (label && p.distinct === 1 && p.n >= 3) return 0.45;
      if (label && p.n >= 10 && p.distinct / p.n < 0.2) return 0.6;
      return p.distinct / p.n >= 0.5 && p.avgLength >= 8 ? 1.08 : 1;
    }
    case 'code':
      if (p.date >= 0.8) return 0.35;
      return p.email >= 0.8 ? 0.3 : 1;
    default:
      return 1;
  }
}

export function describeValues(kind: ValueKind | null, p: ValueProfile | null): string {
  if (!p || p.n === 0 || !kind) return '';
  if (kind === 'date' && p.date >= 0.8) return 'its values are dates';
  if ((kind === 'amount' || kind === 'number') && p.number >= 0.8)
    return p.decimalComma >= 0.5
      ? `its values are ${kind === 'amount' ? 'amounts' : 'numbers'} with a decimal comma`
      : `its values are ${kind === 'amount' ? 'amounts' : 'numbers'}`;
  if (kind === 'email' && p.email >= 0.5) return 'its values are email addresses';
  if (kind === 'phone' && p.phoneStrong + p.phoneWeak >= 0.7) return 'its values are phone numbers';
  if (kind === 'country' && p.country >= 0.6) return 'its values are countries';
  if (kind === 'state' && p.state >= 0.6) return 'its values are states or provinces';
  if (kind === 'image' && p.image >= 0.5) return 'its values are image links';
  if (kind === 'url' && p.url >= 0.6) return 'its values are links';
  if (kind === 'boolean' && p.boolean >= 0.8) return 'its values are yes/no';
  if (kind === 'longText' && p.distinct / p.n >= 0.5 && p.avgLength >= 8) return 'its values are varied text';
  return '';
}

/** A sample value as a number, read with the column's inferred decimal separator (null: not a number). */
export function numberOf(value: string, t: SuggestedTransform | undefined): number | null {
  let v = value.trim().replace(/\b[A-Z]{3}\b|\p{Sc}|\s/gu, '');
  if (v === '') return null;
  let neg = false;
  if (/^\(.*\)$/.test(v)) {
    neg = true;
    v = v.slice(1, -1);
  }
  if (/-$/.test(v)) {
    neg = true;
    v = v.slice(0, -1);
  }
  if (/^[-−]/.test(v)) {
    neg = !neg;
    v = v.slice(1);
  } else if (v.startsWith('+')) v = v.slice(1);
  const sep = t && 'decimalSeparator' in t && t.decimalSeparator === ',' ? ',' : '.';
  const group = sep === ',' ? '.' : ',';
  v = v.split(group).join('').replace(/'/g, '');
  if (sep === ',') v = v.replace(',', '.');
  if (!/^\d+(?:\.\d+)?$|^\.\d+$/.test(v)) return null;
  const n = Number(v);
  return neg ? -n : n;
}

/**
 * Does `balance` move by `amounts` from row to row — the difference of two neighbouring rows' values the
 * size of the amount on one of the two rows — on at least 60 % of at least two neighbouring pairs?
 */
export function movesBy(balance: readonly (number | null)[], amounts: readonly (number | null)[]): boolean {
  let pairs = 0;
  let moved = 0;
  for (let i = 0; i + 1 < balance.length; i++) {
    const b0 = balance[i];
    const b1 = balance[i + 1];
    if (b0 === null || b1 === null) continue;
    const diff = Math.abs(b1 - b0);
    if (diff < 0.005) continue;
    pairs++;
    const near = (x: number | null | undefined) =>
      x !== null && x !== undefined && Math.abs(Math.abs(x) - diff) < 0.005;
    if (near(amounts[i]) || near(amounts[i + 1])) moved++;
  }
  return pairs >= 2 && moved >= pairs * 0.6;
}

/** Ids, not words: most values one token of letters and digits ("8L0000000S000000N", "TXN-20931"). */
export function idsOnly(values: readonly string[]): boolean {
  const filled = values.map((v) => v.trim()).filter((v) => v !== '');
  if (filled.length === 0) return false;
  const ids = filled.filter((v) => !/\s/.test(v) && /\d/.test(v) && /\p{L}/u.test(v)).length;
  return ids >= filled.length * 0.8;
}
