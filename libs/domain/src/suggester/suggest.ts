// The suggester: which data column (or combination of columns) feeds each template column, with the
// transform that reads it, a confidence 0–1 and one sentence saying why. Called by the api (POST
// /api/mappings/suggest); pure, so the same answer everywhere.
//
// Evidence, in order of weight: the header's meaning in the lexicon (lexicon*.ts: eight languages, whole
// words before parts, generic words only whole or with a qualifier that agrees, the file's kind deciding
// words such as "name"), the sample values (dates are never an Amount, emails for Email, phone-shaped values
// for Phone…), the upload's inferred transforms (a debit/credit pair or a direction column wins the Amount),
// and the template's own column types and rules. Combinations: First + Last → Name, Address 1 + 2 → Address,
// several phone or email columns → the first non-empty of them. A data column is used once.
import {
  type FileKind,
  headerTokens,
  lexiconPhrases,
  meaningById,
  normaliseHeader,
  relatedWeight,
  type ValueKind,
} from '../lexicon';
import { profileValues } from '../lexicon-values';
import { findBuiltInTemplate } from '../templates';
import type { ColumnSuggestion, SuggestedTransform, SuggestInput } from './types';
import { kindOf, readHeader, type Reading, templateKind } from './reading';
import { describeValues, idsOnly, movesBy, numberOf, RULE_VALUE_KIND, valueFit } from './values';
import { fitsKind, mergeTransforms, steps, TEXT_STEPS } from './transforms';
import {
  braces,
  CARD_OF,
  CARD_WORDS,
  compact,
  dice,
  HONORIFICS,
  langNote,
  quote,
  round,
  TECHNICAL_KINDS,
} from './words';

/** Below this a pair is not suggested. */
const MIN_SCORE = 0.5;

type Candidate = {
  ti: number;
  /** Data columns it uses. */
  uses: number[];
  score: number;
  pair: Omit<ColumnSuggestion, 'templateColumn' | 'confidence'> & { reason: string };
  /** Data column whose inferred transform and template defaults apply (single-column pairs). */
  single?: number;
};

export function suggestColumnMappings(input: SuggestInput): {
  mappings: ColumnSuggestion[];
  unmatched: string[];
} {
  const builtIn = input.builtInTemplateId ? findBuiltInTemplate(input.builtInTemplateId) : undefined;
  const tCols = input.templateColumns;
  const dCols = input.dataColumns;
  const inferred = input.inferred ?? {};
  const rules = input.templateRules ?? {};
  const builtInCol = (t: string) => builtIn?.columns.find((c) => c.name === t);
  const ruleOf = (t: string) => builtInCol(t)?.rules ?? rules[t];

  // what kind of file each side is: the template's kind reads the template, the data's kind the data
  const tFirst = tCols.map((t) => readHeader(t, null));
  const dFirst = dCols.map((d) => readHeader(d, null));
  const signedBothWays = (d: string): boolean => {
    const t = inferred[d];
    if (t?.kind !== 'amount' && t?.kind !== 'number') return false;
    const nums = (input.samples[d] ?? []).map((v) => numberOf(v, t)).filter((x) => x !== null && x !== 0);
    return nums.some((x) => x! < 0) && nums.some((x) => x! > 0);
  };
  const inferredVotes: Partial<Record<FileKind, number>> = {};
  const inferredList = Object.values(inferred);
  if (inferredList.some((t) => t?.kind === 'debitCredit' || (t && 'sign' in t && t.sign)))
    inferredVotes.bank = 3;
  else if (inferredList.some((t) => t?.kind === 'date') && inferredList.some((t) => t?.kind === 'amount'))
    inferredVotes.bank = 1;
  // dates beside amounts written both negative and positive: money going out and coming in, a statement
  // (a catalogue's prices are not negative; counts are integers, which are not inferred as numbers),
  // whatever its item and address columns say
  if (inferredList.some((t) => t?.kind === 'date') && dCols.some((d) => signedBothWays(d)))
    inferredVotes.bank = (inferredVotes.bank ?? 0) + 5;
  const tKind = templateKind(builtIn) ?? kindOf(tFirst);
  const dKind = kindOf(dFirst, inferredVotes) ?? tKind;
  const tRead = tCols.map((t) => readHeader(t, tKind ?? dKind));
  const dRead = dCols.map((d) => readHeader(d, dKind));
  const profiles = dCols.map((d) => profileValues(input.samples[d]));
  // an empty column's value fit already says it is empty
  const fill = (di: number) => {
    const p = profiles[di];
    return !p || p.n === 0 ? 1 : 0.85 + 0.15 * p.filled;
  };

  /** The kind of values a template column holds: its meaning's, else its rule type's. */
  const tValueKind = tCols.map((t, ti): ValueKind | null => {
    const type = ruleOf(t)?.type;
    if (type && RULE_VALUE_KIND[type]) return RULE_VALUE_KIND[type];
    return tRead[ti][0]?.meaning.values ?? null;
  });
  const tMeaning = (ti: number) => tRead[ti][0]?.meaning.id;
  const tHas = (ids: string[]) => tRead.some((r) => r[0] && ids.includes(r[0].meaning.id));

  const fitFor = (ti: number, di: number, kind: ValueKind | null): number => {
    const p = profiles[di];
    const values = input.samples[dCols[di]];
    let f = kind ? valueFit(kind, p) : 1;
    const type = ruleOf(tCols[ti])?.type;
    if (type && RULE_VALUE_KIND[type] && RULE_VALUE_KIND[type] !== kind) {
      const rule = RULE_VALUE_KIND[type];
      // image file names count for a URL column of images (some shops export names, not links)
      f = Math.min(f, rule === 'url' && kind === 'image' ? valueFit('image', p) : valueFit(rule, p));
    }
    const typeOfProduct =
      tMeaning(ti) === 'productType' || dRead[di].some((r) => r.meaning.id === 'productType');
    if (typeOfProduct && values && p && p.n > 0) {
      const technical = values.filter((v) => TECHNICAL_KINDS.has(v.trim().toLowerCase())).length / p.n;
      if (technical >= 0.9) f *= 0.3;
    }
    // Mr/Ms/Dr are honorifics, anything longer a job title
    const tm = tMeaning(ti);
    if ((tm === 'honorific' || tm === 'jobTitle') && values && p && p.n > 0) {
      const honorific =
        values.filter((v) => HONORIFICS.has(v.trim().toLowerCase().replace(/\.$/, ''))).length / p.n;
      if (tm === 'honorific' ? honorific < 0.5 : honorific >= 0.5) f *= 0.3;
    }
    const allowed = ruleOf(tCols[ti])?.allowed;
    if (allowed && allowed.length > 0 && values && p && p.n > 0) {
      const ok = new Set(allowed.map((a) => a.trim().toLowerCase()));
      const inside = values.filter((v) => v.trim() !== '' && ok.has(v.trim().toLowerCase())).length / p.n;
      f *= inside >= 0.9 ? 1.1 : inside >= 0.5 ? 0.9 : 0.6;
    }
    return f;
  };

  // inferred pairs and signs
  const dIndex = new Map(dCols.map((d, i) => [d, i]));
  let pairT: Extract<SuggestedTransform, { kind: 'debitCredit' }> | undefined;
  for (const t of inferredList)
    if (t?.kind === 'debitCredit' && dIndex.has(t.debitColumn) && dIndex.has(t.creditColumn)) {
      pairT = t;
      break;
    }
  if (!pairT) {
    // the upload did not pair them, but the names do: a debit and a credit column of amounts (or empty)
    const side = (id: string) =>
      dRead
        .map((r, di) => ({ di, r: r.find((x) => x.meaning.id === id && x.strength >= 0.7) }))
        .filter((x) => x.r && valueFit('amount', profiles[x.di]) >= 0.8)
        .sort((a, b) => b.r!.strength - a.r!.strength || a.di - b.di)[0]?.di;
    const debit = side('debit');
    const credit = side('credit');
    if (debit !== undefined && credit !== undefined)
      pairT = { kind: 'debitCredit', debitColumn: dCols[debit], creditColumn: dCols[credit], decimals: 2 };
  }
  const directionCols = new Set<number>();
  for (const t of inferredList)
    if (t && (t.kind === 'amount' || t.kind === 'number') && t.sign && dIndex.has(t.sign.column))
      directionCols.add(dIndex.get(t.sign.column)!);

  /**
   * A column taken as the Amount by its values alone (its name says nothing): 0 when its values are not
   * amounts but ids with digits (an IBAN, a card number) or when it is a running balance — each row's value
   * moves by another column's amount, on the row itself or the next (a balance after or before the
   * transaction, in either order of rows); else 0.5, a little more when its amounts go both ways (money
   * out and in: a transaction amount, where a balance or a fee mostly keeps one sign).
   */
  const byValue = new Map<number, number>();
  const amountsByValue = (di: number): number => {
    let v = byValue.get(di);
    if (v === undefined) byValue.set(di, (v = amountByValues(di)));
    return v;
  };
  const amountByValues = (di: number): number => {
    const d = dCols[di];
    const values = (input.samples[d] ?? []).map((v) => v.trim()).filter((v) => v !== '');
    const withLetters = values.filter((v) =>
      /\p{L}/u.test(v.replace(/\b(?:[A-Z]{3}|CR|DR|cr|dr)\b|\p{Sc}/gu, '')),
    ).length;
    if (withLetters > values.length * 0.1) return 0;
    const own = numbersOf(d);
    for (let a = 0; a < dCols.length; a++) {
      if (a === di) continue;
      if (movesBy(own, numbersOf(dCols[a]))) return 0;
    }
    return signedBothWays(d) ? 0.52 : 0.5;
  };
  const numbers = new Map<string, (number | null)[]>();
  const numbersOf = (d: string): (number | null)[] => {
    let n = numbers.get(d);
    if (!n) numbers.set(d, (n = (input.samples[d] ?? []).map((v) => numberOf(v, inferred[d] ?? undefined))));
    return n;
  };

  const personParts =
    dRead.some((r) => r.some((x) => x.meaning.id === 'firstName' && x.strength >= 0.7)) &&
    dRead.some((r) => r.some((x) => x.meaning.id === 'lastName' && x.strength >= 0.7));
  const candidates: Candidate[] = [];
  const tNorm = tCols.map((t) => compact(normaliseHeader(t)));
  const dNorm = dCols.map((d) => compact(normaliseHeader(d)));
  tCols.forEach((t, ti) => {
    const tn = tNorm[ti];
    if (tn === '') return;
    dCols.forEach((d, di) => {
      const dn = dNorm[di];
      if (dn === '') return;
      let name = 0;
      let tr: Reading | undefined;
      let dr: Reading | undefined;
      let how: 'same' | 'meaning' | 'related' | 'similar' = 'meaning';
      if (tn === dn) {
        name = 1;
        how = 'same';
      } else {
        for (const a of tRead[ti])
          for (const b of dRead[di]) {
            let w = relatedWeight(a.meaning.id, b.meaning.id);
            // with the person's name in first and last name columns, a customer's name names the
            // customer's organisation (Wave's customer_name beside first_name and last_name; a display
            // name stays the person's)
            if (
              a.meaning.id === 'company' &&
              b.meaning.id === 'fullName' &&
              personParts &&
              /custom|client|kund|klant/.test(b.phrase)
            )
              w = 0.6;
            const s = 0.95 * a.strength * b.strength * w;
            if (s > name) {
              name = s;
              tr = a;
              dr = b;
              how = w === 1 ? 'meaning' : 'related';
            }
          }
        if (name === 0 && (tRead[ti].length === 0 || dRead[di].length === 0)) {
          const sim = Math.abs(tn.length - dn.length) > tn.length / 2 ? 0 : dice(tn, dn);
          if (sim >= 0.8 && Math.min(tn.length, dn.length) >= 4) {
            name = 0.65 * sim;
            how = 'similar';
          }
        }
      }
      const kind = tValueKind[ti];
      let score = 0;
      let reason = '';
      const p = profiles[di];
      if (name > 0) {
        let fit = fitFor(ti, di, tr?.meaning.values ?? kind);
        if (how === 'same') fit = Math.max(fit, 0.6);
        score = name * fit * fill(di);
        const values = describeValues(kind, p);
        const what = tr?.meaning.label ?? t;
        reason =
          how === 'same'
            ? `${quote(d)} has the same name`
            : how === 'meaning'
              ? `${quote(d)} means ${what}${langNote(dr)}`
              : how === 'related'
                ? `${quote(d)} is the ${dr!.meaning.label.toLowerCase()}${langNote(dr)}, the closest to ${t} in this file`
                : `${quote(d)} is spelled like ${quote(t)}`;
        if (values) reason += `; ${values}`;
        reason += '.';
      } else if (
        p &&
        p.n > 0 &&
        kind &&
        // nothing in the name, or a name its own values contradict ("Kontakt" holding emails)
        dRead[di].every((r) => valueFit(r.meaning.values, p) < 0.5)
      ) {
        // nothing in the name, but the values say it plainly
        const strong =
          (kind === 'email' && p.email >= 0.8 && 0.62) ||
          (kind === 'image' && p.image >= 0.8 && 0.6) ||
          (kind === 'url' && p.url >= 0.9 && 0.55) ||
          (kind === 'phone' && p.phoneStrong >= 0.8 && 0.55) ||
          (kind === 'country' && p.countryName >= 0.8 && 0.55) ||
          (kind === 'state' && p.state >= 0.8 && p.countryName < 0.5 && 0.55) ||
          (kind === 'amount' &&
            tMeaning(ti) === 'amount' &&
            p.number >= 0.9 &&
            p.amountLike >= 0.5 &&
            amountsByValue(di)) ||
          (['description', 'body'].includes(tMeaning(ti) ?? '') &&
            p.letters >= 0.8 &&
            !idsOnly(input.samples[d] ?? []) &&
            p.date < 0.2 &&
            p.distinct / p.n >= 0.5 &&
            p.avgLength >= 8 &&
            0.5) ||
          (kind === 'date' &&
            ['date', 'bookingDate'].includes(tMeaning(ti) ?? 'date') &&
            p.date >= 0.9 &&
            0.52) ||
          0;
        if (strong) {
          score = strong * fill(di);
          reason = `${quote(d)} says little by its name, but ${describeValues(kind, p) || 'its values fit'}.`;
        }
      }
      // the upload inferred a direction column for this amount: the signed amount wins
      const inf = inferred[d];
      if (
        score > 0 &&
        inf &&
        (inf.kind === 'amount' || inf.kind === 'number') &&
        inf.sign &&
        kind === 'amount'
      ) {
        score = Math.max(score, 0.97);
        reason = reason.replace(/\.$/, '') + `; its sign comes from ${quote(inf.sign.column)}.`;
      }
      if (score >= MIN_SCORE && !directionCols.has(di))
        candidates.push({ ti, uses: [di], score, pair: { dataColumn: d, reason }, single: di });
    });
  });

  // a debit/credit pair the upload inferred feeds the one amount column, before any single column
  if (pairT && !tHas(['debit', 'credit'])) {
    const ti = tCols.findIndex(
      (_, i) => tMeaning(i) === 'amount' || (tRead[i].length === 0 && tValueKind[i] === 'amount'),
    );
    if (ti >= 0) {
      const uses = [dIndex.get(pairT.debitColumn)!, dIndex.get(pairT.creditColumn)!];
      candidates.push({
        ti,
        uses,
        score: 1.05,
        pair: {
          dataColumn: '',
          transform: mergeTransforms(builtInCol(tCols[ti])?.defaultTransform, pairT),
          reason: `${quote(pairT.debitColumn)} and ${quote(pairT.creditColumn)} together make one signed amount (${pairT.sign === 'debitPositive' ? 'debit − credit' : 'credit − debit'}).`,
        },
      });
    }
  }

  // the best data column for a meaning, if its name says so
  const bestFor = (ids: string[], minStrength = 0.7): number[] =>
    dRead
      .map((r, di) => ({ di, r: r.find((x) => ids.includes(x.meaning.id) && x.strength >= minStrength) }))
      .filter((x) => x.r !== undefined)
      .sort((a, b) => b.r!.strength - a.r!.strength || a.di - b.di)
      .map((x) => x.di);
  const filled = (di: number) => profiles[di] === null || profiles[di]!.n > 0;

  // Name ← First + Last, when the template has one name column and no parts
  if (!tHas(['firstName', 'lastName'])) {
    const first = bestFor(['firstName']);
    const last = bestFor(['lastName']);
    const middle = bestFor(['middleName']);
    if (first.length > 0 && last.length > 0) {
      const parts = [first[0], ...(middle.length > 0 ? [middle[0]] : []), last[0]];
      tCols.forEach((t, ti) => {
        if (!['fullName', 'contactName'].includes(tMeaning(ti) ?? '')) return;
        const pattern = parts.map((di) => `{${braces(dCols[di])}}`).join(' ');
        candidates.push({
          ti,
          uses: parts,
          score: 0.93,
          pair: {
            dataColumn: '',
            transform: { kind: 'combine', pattern },
            reason: `${t} joins ${parts.map((di) => quote(dCols[di])).join(' and ')}: '${pattern}'.`,
          },
        });
      });
    }
  }

  // Address ← Address 1 + Address 2, when the template has one address column
  if (!tHas(['addressLine2'])) {
    const line1 = [...bestFor(['addressLine1', 'street']), ...bestFor(['address'])];
    const line2 = bestFor(['addressLine2']);
    const targets = tCols
      .map((_, ti) => ti)
      .filter((ti) => ['address', 'street', 'addressLine1'].includes(tMeaning(ti) ?? ''));
    if (line1.length > 0 && line2.length > 0 && targets.length === 1) {
      // the first line that has a second line of the same address (Business Street + Business Street 2)
      const a = line1[0];
      const b = line2.find((x) => x > a) ?? line2[0];
      const pattern = `{${braces(dCols[a])}}, {${braces(dCols[b])}}`;
      candidates.push({
        ti: targets[0],
        uses: [a, b],
        score: 0.97,
        pair: {
          dataColumn: '',
          transform: { kind: 'combine', pattern },
          reason: `${tCols[targets[0]]} joins ${quote(dCols[a])} and ${quote(dCols[b])}: '${pattern}'.`,
        },
      });
    }
  }

  // several typed phone or email columns onto one: the first non-empty of them
  const families: [string, string[], string[]][] = [
    ['phone', ['phone', 'mobile', 'workPhone', 'homePhone'], ['mobile', 'workPhone', 'homePhone']],
    ['email', ['email', 'email2'], ['email2']],
  ];
  for (const [target, members, typed] of families) {
    const tis = tCols.map((_, ti) => ti).filter((ti) => tMeaning(ti) === target);
    if (tis.length !== 1 || tHas(typed)) continue;
    const kind: ValueKind = target === 'phone' ? 'phone' : 'email';
    // in the file's own order: the first non-empty of them, as the file lists them
    const cols = members
      .flatMap((m) => bestFor([m], 0.6))
      .filter((di, i, all) => all.indexOf(di) === i)
      .filter((di) => valueFit(kind, profiles[di]) >= 0.8 && filled(di))
      .sort((a, b) => a - b);
    if (cols.length < 2) continue;
    const names = cols.map((di) => dCols[di]);
    candidates.push({
      ti: tis[0],
      uses: cols,
      score: 1.02,
      pair: {
        dataColumn: '',
        transform: { kind: 'coalesce', columns: names },
        reason: `${tCols[tis[0]]} takes the first non-empty of ${names.map(quote).join(', ')}.`,
      },
    });
  }

  candidates.sort((a, b) => b.score - a.score || a.ti - b.ti || a.uses[0] - b.uses[0]);
  const usedT = new Map<number, Candidate>();
  const usedD = new Set<number>(directionCols);
  for (const c of candidates) {
    if (usedT.has(c.ti) || c.uses.some((di) => usedD.has(di))) continue;
    usedT.set(c.ti, c);
    c.uses.forEach((di) => usedD.add(di));
  }
  // a required column left without a source takes one from an optional column, if it has a candidate
  // there (Barclays' Memo is its description: Description ← Memo, Memo left empty)
  const required = (ti: number) => builtInCol(tCols[ti])?.required ?? ruleOf(tCols[ti])?.required === true;
  tCols.forEach((_, ti) => {
    if (usedT.has(ti) || !required(ti)) return;
    for (const c of candidates) {
      if (c.ti !== ti) continue;
      const holders = [...usedT.entries()].filter(([, h]) => h.uses.some((di) => c.uses.includes(di)));
      if (holders.some(([hti]) => required(hti))) continue;
      const free = c.uses.every((di) => !usedD.has(di) || holders.some(([, h]) => h.uses.includes(di)));
      if (!free) continue;
      for (const [hti, h] of holders) {
        usedT.delete(hti);
        h.uses.forEach((di) => usedD.delete(di));
      }
      usedT.set(ti, c);
      c.uses.forEach((di) => usedD.add(di));
      break;
    }
  });

  // a card statement: the card that paid ("Card No.", "Card Member", "Card Used For Transaction") beside
  // one amount column whose values are mostly positive, with no direction column or debit/credit pair to
  // sign them, and no customers' emails (a payment provider's export lists its customers' cards, and its
  // positive amounts are money in)
  const cardHint =
    dCols.some((d) => {
      const w = headerTokens(d);
      return (
        w.some((x) => x.startsWith('cardmember') || x.startsWith('kreditkart')) ||
        (w.some((x) => CARD_WORDS.has(x)) && w.some((x) => CARD_OF.has(x)))
      );
    }) && !profiles.some((p) => p !== null && p.n > 0 && p.email >= 0.5);
  const cardStatement = (di: number): boolean => {
    if (!cardHint || dKind !== 'bank' || pairT) return false;
    const inf = inferred[dCols[di]];
    if (inf && (inf.kind === 'amount' || inf.kind === 'number') && (inf.sign || inf.invert)) return false;
    const values = (input.samples[dCols[di]] ?? []).map((v) => v.trim()).filter((v) => /\d/.test(v));
    if (values.length < 2) return false;
    const negative = values.filter((v) => /^\s*[-(−]|-\s*$|\b(?:CR|DR)\b/i.test(v)).length;
    // at least two thirds positive: charges outnumber payments and refunds
    return negative * 3 <= values.length;
  };
  const mappings: ColumnSuggestion[] = [];
  const unmatched: string[] = [];
  const byTemplate = new Map<string, ColumnSuggestion>();
  tCols.forEach((t, ti) => {
    const c = usedT.get(ti);
    const col = builtInCol(t);
    if (!c) return;
    let transform = c.pair.transform;
    if (c.single !== undefined) {
      const inf = inferred[dCols[c.single]] ?? undefined;
      const usable = inf && inf.kind !== 'debitCredit' && fitsKind(inf, tValueKind[ti]) ? inf : undefined;
      transform = mergeTransforms(col?.defaultTransform, usable);
      const rule = ruleOf(t);
      if (!col && rule?.type === 'date' && rule.format && usable?.kind === 'date')
        transform = { ...usable, output: rule.format };
      if (tMeaning(ti) === 'amount' && cardStatement(c.single)) {
        // card exports list charges as positive numbers: money out must come out negative
        const chain = steps(transform);
        const head = chain[0];
        const signed: SuggestedTransform =
          head && (head.kind === 'amount' || head.kind === 'number')
            ? { ...head, invert: true }
            : { kind: 'amount', invert: true };
        transform =
          head && (head.kind === 'amount' || head.kind === 'number')
            ? [signed, ...chain.slice(1)]
            : [signed, ...chain];
        if (Array.isArray(transform) && transform.length === 1) transform = transform[0];
        c.pair.reason = c.pair.reason.replace(
          /\.$/,
          '; a card statement lists charges as positive amounts, so the sign is flipped (money out negative).',
        );
      }
    } else if (transform && !Array.isArray(transform) && ['combine', 'coalesce'].includes(transform.kind)) {
      // text defaults of the template (trim, lower case, a length limit) follow the combination
      const after = steps(col?.defaultTransform).filter((s) =>
        TEXT_STEPS.has(s.kind),
      ) as SuggestedTransform[];
      if (after.length > 0) transform = [transform, ...after];
    }
    const m: ColumnSuggestion = {
      templateColumn: t,
      dataColumn: c.pair.dataColumn,
      ...(transform !== undefined ? { transform } : {}),
      confidence: round(c.score),
      reason: c.pair.reason,
    };
    byTemplate.set(t, m);
  });

  // Option1 Name from the column that gave Option1 Value ("Size" → Option1 Name = Size)
  tCols.forEach((t, ti) => {
    if (byTemplate.has(t) || tMeaning(ti) !== 'optionName') return;
    const valueTi = tCols.findIndex((_, i) => tMeaning(i) === 'optionValue');
    const v = valueTi >= 0 ? usedT.get(valueTi) : undefined;
    if (!v || v.single === undefined || !dRead[v.single].some((r) => r.meaning.id === 'variantAttribute'))
      return;
    const value = dCols[v.single];
    byTemplate.set(t, {
      templateColumn: t,
      dataColumn: '',
      transform: { kind: 'constant', value },
      confidence: 0.7,
      reason: `${t} is ${quote(value)}, the name of the column that gives ${tCols[valueTi]}.`,
    });
  });

  for (const t of tCols) {
    let m = byTemplate.get(t);
    const col = builtInCol(t);
    if (!m && col?.derive) {
      // a built-in derived column (Shopify's Handle from the Title) when its source is mapped
      const from = byTemplate.get(col.derive.from);
      if (from && from.dataColumn !== '') {
        const before = steps(from.transform).filter((s) => ['trim', 'upper', 'lower'].includes(s.kind));
        m = {
          templateColumn: t,
          dataColumn: from.dataColumn,
          transform: [...before, ...(col.derive.transform as SuggestedTransform[])],
          confidence: 0.8,
          reason: `${t} is made from ${quote(from.dataColumn)} (the ${col.derive.from}).`,
        };
      }
    }
    if (m) mappings.push(m);
    else if (col && !col.required)
      mappings.push({
        templateColumn: t,
        dataColumn: '',
        empty: true,
        confidence: 0.6,
        reason: `Nothing in the file means ${t}, and the column is optional: left empty.`,
      });
    else unmatched.push(t);
  }
  return { mappings, unmatched };
}

/**
 * Builds the lexicon's phrase index and the country names once (about 0.1 s), so the first suggestion a
 * process answers costs what the others do. Optional: the first call does it otherwise.
 */
export function prepareSuggester(): void {
  lexiconPhrases();
  profileValues(['Germany']);
}

/** For tests and reasons: the label of a meaning id. */
export function meaningLabel(id: string): string | undefined {
  return meaningById(id)?.label;
}
