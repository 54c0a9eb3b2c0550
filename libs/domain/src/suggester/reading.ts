// Reading a header: the meanings a column header has in the lexicon (lexicon*.ts), and the kind of file a
// set of headers describes.
import {
  CONTEXT_QUALIFIERS,
  type FileKind,
  GENERIC,
  headerTokens,
  type Lang,
  type LexiconEntry,
  lexiconPhrases,
  type Meaning,
  NOISE,
} from '../lexicon';
import type { BuiltInTemplate } from '../templates';

export interface Reading {
  meaning: Meaning;
  /** 1 = the whole header is the word; less with other words around it. */
  strength: number;
  lang: Lang;
  /** The lexicon phrase that matched. */
  phrase: string;
}

interface Match {
  start: number;
  positions: number[];
  key: string;
  entries: LexiconEntry[];
}

const MAX_PHRASE = 6;
const isGeneric = (phrase: string): boolean => Object.prototype.hasOwnProperty.call(GENERIC, phrase);
/** Words that make a header about the kind or label of something rather than the thing itself. */
const DESCRIPTORS = new Set(['type', 'typ', 'tipo', 'art', 'kind', 'label', 'labels', 'soort', 'genre']);
const isDigits = (t: string): boolean => /^\d+$/.test(t);

/** The entries a phrase keeps in a file of this kind: that kind's, else the kind-free ones. */
function resolve(entries: LexiconEntry[], ctx: FileKind | null): LexiconEntry[] {
  if (entries.length <= 1) {
    const k = entries[0]?.meaning.kind;
    return k === undefined || ctx === null || k === ctx ? entries : [];
  }
  const same = entries.filter((e) => e.meaning.kind === ctx);
  if (same.length > 0) return same;
  const free = entries.filter((e) => e.meaning.kind === undefined);
  if (free.length > 0) return free;
  return ctx === null ? entries : [];
}

/** The meanings a header has, strongest first. */
export function readHeader(header: string, ctx: FileKind | null): Reading[] {
  const tokens = headerTokens(header);
  if (tokens.length === 0) return [];
  const index = lexiconPhrases();
  const allDigits = tokens.every(isDigits);
  const stripped = tokens.map((t, i) => [t, i] as const).filter(([t]) => allDigits || !isDigits(t));
  const found: Match[] = [];
  const scan = (seq: readonly (readonly [string, number])[]) => {
    for (let len = Math.min(MAX_PHRASE, seq.length); len >= 1; len--) {
      for (let s = 0; s + len <= seq.length; s++) {
        const part = seq.slice(s, s + len);
        const key = part.map(([t]) => t).join(' ');
        const entries = index.get(key);
        if (entries) found.push({ start: part[0][1], positions: part.map(([, i]) => i), key, entries });
      }
    }
  };
  scan(tokens.map((t, i) => [t, i] as const));
  if (stripped.length !== tokens.length) scan(stripped);
  // longest phrases first; a token belongs to one phrase
  found.sort((a, b) => b.positions.length - a.positions.length || a.start - b.start);
  const covered = new Set<number>();
  let chosen: (Match & { resolved: LexiconEntry[] })[] = [];
  for (const m of found) {
    if (m.positions.some((p) => covered.has(p))) continue;
    m.positions.forEach((p) => covered.add(p));
    chosen.push({ ...m, resolved: resolve(m.entries, ctx) });
  }
  const modifiers = new Set<number>();
  const drop = (m: Match, asModifier: boolean) => {
    chosen = chosen.filter((c) => c !== m);
    if (asModifier) m.positions.forEach((p) => modifiers.add(p));
    else m.positions.forEach((p) => covered.delete(p));
  };
  // phrases that mean nothing in this kind of file leave their words as plain words
  for (const m of [...chosen]) if (m.resolved.length === 0) drop(m, false);
  // a qualifier word next to a real meaning qualifies it ("Customer Email"); a generic word next to one
  // is a modifier ("Organization Name", "Phone Type")
  if (chosen.length > 1) {
    for (const m of [...chosen]) {
      const single = m.positions.length === 1 ? tokens[m.positions[0]] : null;
      if (chosen.length > 1 && (isGeneric(m.key) || (single !== null && CONTEXT_QUALIFIERS.has(single))))
        drop(m, true);
    }
  }
  const leftovers = tokens.filter(
    (t, i) => !covered.has(i) && !modifiers.has(i) && !isDigits(t) && !NOISE.has(t),
  );
  const out: Reading[] = [];
  chosen.sort((a, b) => a.start - b.start);
  chosen.forEach((m, k) => {
    let strength: number;
    const agree = (t: string) => CONTEXT_QUALIFIERS.has(t) || (GENERIC[m.key] ?? []).includes(t);
    if (isGeneric(m.key)) {
      // generic words: whole header, or with qualifiers that agree
      if (!leftovers.every((t) => (GENERIC[m.key] ?? []).includes(t))) return;
      strength = leftovers.length === 0 ? (modifiers.size > 0 ? 0.9 : 1) : 0.9;
    } else if (chosen.length === 1) {
      strength =
        leftovers.length === 0 ? (modifiers.size > 0 ? 0.92 : 1) : leftovers.every(agree) ? 0.9 : 0.75;
    } else {
      // several meanings: the last is the head ("Address 1 - City", "Customer Phone"), the others modify it
      const head = k === chosen.length - 1;
      strength = head ? (leftovers.length === 0 ? 0.85 : 0.75) : 0.5;
    }
    // "E-mail 1 - Type", "Phone 2 - Label": the kind of the thing, not the thing
    const kindOnly = tokens.some(
      (t, i) => DESCRIPTORS.has(t) && !chosen.some((c) => c.positions.includes(i)),
    );
    const share = (m.resolved.length > 1 ? 0.85 : 1) * (kindOnly ? 0.5 : 1);
    for (const e of m.resolved)
      out.push({ meaning: e.meaning, strength: strength * share, lang: e.lang, phrase: m.key });
  });
  if (out.length === 0 && chosen.length === 0) {
    // German, Dutch and Swedish compounds: "Buchungsdatum", "Lagerbestand", "Kundenname"
    const words = tokens.filter((t) => !isDigits(t) && !NOISE.has(t));
    for (const t of words) {
      for (let k = t.length - 3; k >= 4; k--) {
        const tail = t.slice(t.length - k);
        if (isGeneric(tail) && !['name', 'naam', 'namn', 'datum'].includes(tail)) continue;
        const entries = resolve(index.get(tail) ?? [], ctx);
        if (entries.length === 0) continue;
        for (const e of entries)
          out.push({
            meaning: e.meaning,
            strength: words.length === 1 ? 0.72 : 0.6,
            lang: e.lang,
            phrase: tail,
          });
        break;
      }
      if (out.length > 0) break;
    }
  }
  return out.sort((a, b) => b.strength - a.strength);
}

/** The kind of file a set of headers (and inferred transforms) describes, if they say. */
export function kindOf(
  readings: readonly Reading[][],
  extra: Partial<Record<FileKind, number>> = {},
): FileKind | null {
  const votes: Record<FileKind, number> = { bank: 0, contacts: 0, products: 0, ...extra };
  for (const r of readings) {
    const kinds = new Set(r.filter((x) => x.strength >= 0.7).map((x) => x.meaning.kind));
    // a header whose words mean different things in different kinds of file casts no vote
    if (kinds.size !== 1) continue;
    const k = [...kinds][0];
    if (k) votes[k] += 1;
  }
  const best = (Object.entries(votes) as [FileKind, number][]).sort((a, b) => b[1] - a[1]);
  return best[0][1] > 0 && best[0][1] > best[1][1] ? best[0][0] : null;
}

export function templateKind(t: BuiltInTemplate | undefined): FileKind | null {
  if (!t) return null;
  if (t.category === 'ecommerce') return 'products';
  return t.id.includes('bank') ? 'bank' : 'contacts';
}
