// Words and reasons: name similarity (Dice on bigrams), the word sets the scoring asks about (card,
// honorifics, shop systems' technical kinds) and the helpers that write a suggestion's reason.
import { LANGUAGE_NAMES } from '../lexicon';
import type { Reading } from './reading';

export const compact = (s: string): string => s.replace(/ /g, '');

/** Sørensen–Dice coefficient on character bigrams. */
export function dice(a: string, b: string): number {
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

export const quote = (s: string): string => `'${s}'`;
export const langNote = (r: Reading | undefined): string =>
  r && r.lang !== 'en' && !/^[a-z]{1,4}$/.test(r.phrase) ? ` (${LANGUAGE_NAMES[r.lang]})` : '';
export const round = (x: number): number => Math.round(Math.min(1, Math.max(0, x)) * 100) / 100;
export const braces = (s: string): string => s.replace(/\{/g, '{{').replace(/\}/g, '}}');

export const CARD_WORDS = new Set([
  'card',
  'carte',
  'kaart',
  'kredietkaart',
  'tarjeta',
  'carta',
  'cartao',
  'kort',
  'karte',
]);
/** Words that make a card column the paying card: its number, holder or use. */
export const CARD_OF = new Set([
  'no',
  'nr',
  'number',
  'member',
  'used',
  'holder',
  'numero',
  'nummer',
  'kredietkaart',
]);

export const HONORIFICS = new Set(
  'mr|mrs|ms|miss|mx|dr|prof|sir|madam|herr|frau|mme|mlle|m|dhr|mevr|sr|sra|srta|sig|sig ra|dott|sr a|hr|fr'.split(
    '|',
  ),
);

/** A shop system's technical product kinds: not what a target's "product type" (a category word) means. */
export const TECHNICAL_KINDS = new Set(
  'simple|variable|variation|grouped|external|configurable|virtual|bundle|downloadable|consu|consumable|service|product|physical|digital|standard|combinations|pack|simple product|variable product|storable product|stockable product|storable|stockable|goods|combo'.split(
    '|',
  ),
);
