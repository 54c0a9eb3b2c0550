// What sample values look like, as evidence for a column's meaning: dates, amounts, emails, phone numbers,
// URLs and images, booleans, ISO countries (codes and names in the lexicon's eight languages), states and
// provinces. A profile is computed once per data column from its first rows.

// The engine's yes/no words, read by path: the web app resolves @csv-mapper/domain but not the engine,
// and booleans.ts imports nothing.
import { booleanWord } from '../../csv-engine/src/booleans';
import { normaliseHeader } from './lexicon';

/** ISO 3166-1 alpha-2 codes (plus UK and EL, which exports use for GB and GR). */
const ALPHA2 =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW UK EL XK';

/** Alpha-3 codes of the countries exports name most. */
const ALPHA3 =
  'USA GBR DEU FRA NLD BEL ESP ITA PRT SWE NOR DNK FIN AUT CHE IRL POL CZE CAN AUS NZL JPN CHN IND BRA MEX ARG ZAF LUX GRC HUN ROU BGR HRV SVN SVK EST LVA LTU ISL TUR ISR ARE SGP HKG KOR RUS UKR';

/** Names that Intl.DisplayNames does not give but files use. */
const COUNTRY_ALIASES =
  'usa|us|u s a|u s|united states of america|america|uk|u k|great britain|england|scotland|wales|northern ireland|holland|the netherlands|czech republic|south korea|north korea|russia|vatican|ivory coast|deutschland|brd|schweiz|suisse|svizzera|osterreich|belgique|belgie|sverige|norge|danmark|suomi|espana|italia|nederland|polska|eire|hellas|magyarorszag';

const NAME_LANGS = ['en', 'de', 'fr', 'nl', 'es', 'it', 'pt', 'sv'];

let countryNames: Set<string> | null = null;
let alpha2: Set<string> | null = null;
let alpha3: Set<string> | null = null;

function countries(): { names: Set<string>; a2: Set<string>; a3: Set<string> } {
  if (!countryNames || !alpha2 || !alpha3) {
    alpha2 = new Set(ALPHA2.split(' '));
    alpha3 = new Set(ALPHA3.split(' '));
    countryNames = new Set(COUNTRY_ALIASES.split('|'));
    for (const lang of NAME_LANGS) {
      let names: Intl.DisplayNames;
      try {
        names = new Intl.DisplayNames([lang], { type: 'region' });
      } catch {
        continue;
      }
      for (const code of alpha2) {
        const name = names.of(code);
        if (name && name !== code) countryNames.add(normaliseHeader(name));
      }
    }
  }
  return { names: countryNames, a2: alpha2, a3: alpha3 };
}

/** US states and territories, Canadian provinces, Australian states (codes). */
const STATE_CODES = new Set(
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR GU VI AB BC MB NB NL NS NT NU ON PE QC SK YT NSW VIC QLD TAS ACT'.split(
    ' ',
  ),
);
const STATE_NAMES = new Set(
  'alabama|alaska|arizona|arkansas|california|colorado|connecticut|delaware|district of columbia|florida|georgia|hawaii|idaho|illinois|indiana|iowa|kansas|kentucky|louisiana|maine|maryland|massachusetts|michigan|minnesota|mississippi|missouri|montana|nebraska|nevada|new hampshire|new jersey|new mexico|new york|north carolina|north dakota|ohio|oklahoma|oregon|pennsylvania|rhode island|south carolina|south dakota|tennessee|texas|utah|vermont|virginia|washington|west virginia|wisconsin|wyoming|puerto rico|alberta|british columbia|manitoba|new brunswick|newfoundland and labrador|nova scotia|ontario|prince edward island|quebec|saskatchewan|yukon|new south wales|victoria|queensland|tasmania|western australia|south australia|northern territory|bayern|baden wurttemberg|berlin|brandenburg|bremen|hamburg|hessen|niedersachsen|nordrhein westfalen|rheinland pfalz|saarland|sachsen|sachsen anhalt|schleswig holstein|thuringen|noord holland|zuid holland|utrecht|gelderland|noord brabant|limburg|overijssel|friesland|groningen|drenthe|flevoland|zeeland|england'.split(
    '|',
  ),
);

export interface ValueProfile {
  /** Values given (including empty ones). */
  total: number;
  /** Share of the values given that are not empty. */
  filled: number;
  /** Non-empty values. */
  n: number;
  distinct: number;
  avgLength: number;
  /** Shares of the non-empty values (0–1). */
  date: number;
  number: number;
  integer: number;
  /** Numbers written with a decimal comma. */
  decimalComma: number;
  /** Numbers with currency marks, signs or decimals (amount-like rather than counts). */
  amountLike: number;
  email: number;
  phoneStrong: number;
  phoneWeak: number;
  url: number;
  image: number;
  country: number;
  countryName: number;
  state: number;
  boolean: number;
  letters: number;
  html: number;
}

const DATE_DIGITS = /^(?:\d{1,4}[./-]\d{1,2}[./-]\d{1,4}|(?:19|20)\d{6})(?:[ T]\d{1,2}:\d{2}.*)?\.?$/;
const DATE_WORDS =
  /^(?:\d{1,2}[ .\-/]?\p{L}{3,10}\.?[ .\-/,]*\d{2,4}|\p{L}{3,10}\.? \d{1,2},? \d{2,4})(?:[ T,]+\d{1,2}:\d{2}.*)?$/u;
const NUMBER = /^[-+]?\(?[-+]?(?:\d{1,3}(?:[.,' \u00a0\u202f]\d{3})+|\d+)(?:[.,]\d+)?\)?-?$|^[-+]?[.,]\d+$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i;
const URL = /^(?:https?:\/\/|www\.)\S+$/i;
const IMAGE = /\.(?:png|jpe?g|gif|webp|avif|svg|bmp|tiff?)(?:[?#]\S*)?$/i;

function isDate(v: string, nonAscii: boolean): boolean {
  if (DATE_DIGITS.test(v)) return true;
  if (v.length > 26 || !/^[\d\p{L}]/u.test(v) || v.split(' ').length > 4) return false;
  // "10 Aug 2024", "Aug 10, 2024", "1. März 2024": a month word between digits
  return DATE_WORDS.test(nonAscii ? v.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : v);
}

const PLAIN_NUMBER = /^(-?)\d+(?:([.,])\d+)?$/;

function readNumber(v: string): { ok: boolean; comma: boolean; marked: boolean; integer: boolean } {
  const plain = PLAIN_NUMBER.exec(v);
  if (plain) {
    const sep = plain[2];
    return {
      ok: true,
      comma: sep === ',' && v.length - v.lastIndexOf(',') <= 3,
      marked: sep !== undefined || plain[1] === '-',
      integer: !sep,
    };
  }
  const stripped = v
    .replace(/\p{Sc}/gu, '')
    .replace(/\b[A-Z]{3}\b/g, '')
    .replace(/\b(?:CR|DR|cr|dr)\.?$/, '')
    // a currency written as a word before or after the number: "15 000 Fcfa", "kr 120", "zł 9,99"
    .replace(/^\p{L}{1,5}\.?\s*(?=[-+(\d])/u, '')
    .replace(/(?<=[\d)])\s*\p{L}{1,5}\.?$/u, '')
    .replace(/\s+/g, ' ')
    .trim();
  const ok = stripped !== '' && NUMBER.test(stripped.replace(/^([-+]?)\s+/, '$1'));
  const integer = /^[-+]?\d+$/.test(stripped);
  return {
    ok,
    comma: ok && /,\d{1,2}\)?-?$/.test(stripped) && !/\.\d{1,2}\)?-?$/.test(stripped),
    marked: ok && (stripped !== v.trim() || /[(),.-]|^\+/.test(stripped)),
    integer,
  };
}

function phoneShape(v: string): 'strong' | 'weak' | null {
  const s = v.replace(/\s*(?:x|ext\.?|extension)\s*\d+$/i, '').trim();
  if (!/^(?:\+|00)?[\d\s()./-]+$/.test(s)) return null;
  const digits = s.replace(/\D/g, '').length;
  if (digits < 7 || digits > 15) return null;
  return /^\+|^00|[\s()./-]/.test(s) || /^0\d{9,10}$/.test(s) ? 'strong' : 'weak';
}

const MAX_DISTINCT = 100;

export function profileValues(values: readonly string[] | undefined): ValueProfile | null {
  if (!values) return null;
  const { names, a2, a3 } = countries();
  const p: ValueProfile = {
    total: values.length,
    filled: 0,
    n: 0,
    distinct: 0,
    avgLength: 0,
    date: 0,
    number: 0,
    integer: 0,
    decimalComma: 0,
    amountLike: 0,
    email: 0,
    phoneStrong: 0,
    phoneWeak: 0,
    url: 0,
    image: 0,
    country: 0,
    countryName: 0,
    state: 0,
    boolean: 0,
    letters: 0,
    html: 0,
  };
  const seen = new Set<string>();
  const known = new Map<string, readonly [boolean, boolean, boolean]>();
  let length = 0;
  // each distinct value is looked at once and counted as often as it occurs
  const counts = new Map<string, number>();
  // up to 100 distinct values tell the shares well enough (a profile is made per column per request)
  let nonEmpty = 0;
  for (const raw of values) {
    const v = raw.trim();
    if (v === '') continue;
    const seenBefore = counts.get(v);
    nonEmpty++;
    if (seenBefore === undefined && counts.size >= MAX_DISTINCT) continue;
    counts.set(v, (seenBefore ?? 0) + 1);
  }
  for (const [v, c] of counts) {
    p.n += c;
    length += v.length * c;
    seen.add(v);
    if (v.length > 200) {
      if (/<\/?[a-z][^>]*>/i.test(v)) p.html += c;
      if (IMAGE.test(v.split(/[,|;]\s*/)[0])) p.image += c;
      if (/\p{L}/u.test(v)) p.letters += c;
      continue;
    }
    // one pass over the characters decides which of the dearer tests can apply
    let digits = 0;
    let letterCount = 0;
    let nonAscii = false;
    for (let i = 0; i < v.length; i++) {
      const ch = v.charCodeAt(i);
      if (ch >= 48 && ch <= 57) digits++;
      else if ((ch >= 65 && ch <= 90) || (ch >= 97 && ch <= 122)) letterCount++;
      else if (ch >= 0xc0) {
        nonAscii = true;
        letterCount++;
      }
    }
    const digit = digits > 0;
    if (digits >= 3 && v.length <= 40 && isDate(v, nonAscii)) p.date += c;
    else if (digit && letterCount <= 5) {
      const num = readNumber(v);
      if (num.ok) {
        p.number += c;
        if (num.integer) p.integer += c;
        if (num.comma) p.decimalComma += c;
        if (num.marked) p.amountLike += c;
      }
      const phone = phoneShape(v);
      if (phone === 'strong') p.phoneStrong += c;
      else if (phone === 'weak') p.phoneWeak += c;
    }
    if (v.includes('@') && EMAIL.test(v)) p.email += c;
    if ((v[0] === 'h' || v[0] === 'w' || v[0] === 'H' || v[0] === 'W') && URL.test(v.split(/[,|;\s]+/)[0]))
      p.url += c;
    // image links, or image file names as some shops export them
    if (v.includes('.') && IMAGE.test(v.split(/[,|;]\s*/)[0])) p.image += c;
    // The engine's yes/no words; a lone dash is as often a placeholder as a no.
    if (v.length <= 9 && v !== '-' && booleanWord(v) !== null) p.boolean += c;
    const letters =
      letterCount > 0 && (!nonAscii || /[A-Za-z\u00c0-\u024f\u0370-\u1fff\u3040-\u9fff]/.test(v));
    if (letters) p.letters += c;
    if (v.includes('<') && /<\/?[a-z][^>]*>/i.test(v)) p.html += c;
    if (letters && !digit && v.length <= 40) {
      let place = known.get(v);
      if (!place) {
        const upper = v.toUpperCase();
        const name = normaliseHeader(v);
        const isCode = v.length === 2 ? a2.has(upper) : v.length === 3 ? a3.has(upper) : false;
        place = [
          isCode || names.has(name),
          !isCode && names.has(name),
          STATE_CODES.has(upper) || STATE_NAMES.has(name),
        ];
        known.set(v, place);
      }
      if (place[0]) p.country += c;
      if (place[1]) p.countryName += c;
      if (place[2]) p.state += c;
    }
  }
  p.distinct = seen.size;
  p.filled = values.length === 0 ? 0 : nonEmpty / values.length;
  p.avgLength = p.n === 0 ? 0 : length / p.n;
  if (p.n > 0) {
    for (const k of [
      'date',
      'number',
      'integer',
      'decimalComma',
      'amountLike',
      'email',
      'phoneStrong',
      'phoneWeak',
      'url',
      'image',
      'country',
      'countryName',
      'state',
      'boolean',
      'letters',
      'html',
    ] as const)
      p[k] = p[k] / p.n;
  }
  return p;
}
