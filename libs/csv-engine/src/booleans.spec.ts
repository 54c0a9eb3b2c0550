// One yes/no word list for the transform, the column-kind inference, the template rule and (libs/domain)
// the suggester's value profile: every word one of them reads, the others read the same way.
import { profileValues } from '../../domain/src/lexicon-values';
import { applyMappingToBuffer } from './mapping';
import { inferColumnTransform } from './mapping/column-kinds';
import { checkValue, compileRules } from './mapping/rules';
import { booleanWord, FALSE_WORDS, PLAIN_BOOLEAN_WORDS, TRUE_WORDS, WEAK_BOOLEAN_WORDS } from './booleans';

async function mapBooleans(values: string[]): Promise<string[]> {
  const csv = 'v\n' + values.map((v) => (v === '' ? '""' : v)).join('\n') + '\n';
  const { data, stats } = await applyMappingToBuffer(
    Buffer.from(csv),
    ['out'],
    [{ templateColumn: 'out', dataColumn: 'v', transform: { kind: 'boolean', output: ['TRUE', 'FALSE'] } }],
    // A column of nothing but yes/no words: the header row and delimiter are given, not sniffed.
    { lineEnding: '\n', input: { headerRow: 1, delimiter: ',' } },
  );
  expect(stats.warnings).toEqual([]);
  return data.toString('utf8').trimEnd().split('\n').slice(1);
}

describe('the yes/no words', () => {
  it('reads each word one way, in any case and with spaces around it', () => {
    expect(TRUE_WORDS.filter((w) => FALSE_WORDS.includes(w))).toEqual([]);
    for (const w of TRUE_WORDS) expect([w, booleanWord(` ${w.toUpperCase()} `)]).toEqual([w, true]);
    for (const w of FALSE_WORDS) expect([w, booleanWord(w)]).toEqual([w, false]);
    expect(booleanWord('maybe')).toBeNull();
    expect(booleanWord('')).toBeNull();
    for (const w of [...WEAK_BOOLEAN_WORDS, ...PLAIN_BOOLEAN_WORDS]) expect(booleanWord(w)).not.toBeNull();
  });

  it('the boolean transform maps every word, marks and the suggester’s languages included', async () => {
    expect(await mapBooleans([...TRUE_WORDS])).toEqual(TRUE_WORDS.map(() => 'TRUE'));
    expect(await mapBooleans([...FALSE_WORDS])).toEqual(FALSE_WORDS.map(() => 'FALSE'));
    expect(await mapBooleans(['✓', 'Unchecked', 'Sim', 'Não', 'nee'])).toEqual([
      'TRUE',
      'FALSE',
      'TRUE',
      'FALSE',
      'FALSE',
    ]);
  });

  it('a column of checkmarks is suggested as boolean; one of weak words alone is not', () => {
    const bool = { kind: 'boolean', output: ['TRUE', 'FALSE'] };
    expect(inferColumnTransform(['✓', '', '✓', 'unchecked', 'checked'])).toEqual(bool);
    expect(inferColumnTransform(['Ja', 'Nee', 'ja'])).toEqual(bool);
    expect(inferColumnTransform(['active', 'inactive', 'active'])).not.toEqual(bool);
    expect(inferColumnTransform(['0', '1', '1', '0'])).not.toEqual(bool);
  });

  it('the suggester profiles the same words as booleans (a lone dash aside)', () => {
    const profile = profileValues([...TRUE_WORDS, ...FALSE_WORDS].filter((w) => w !== '-'));
    expect(profile?.boolean).toBe(1);
    expect(profileValues(['✓', 'checked', 'unchecked'])?.boolean).toBe(1);
    expect(profileValues(['-', '-'])?.boolean).toBe(0);
  });

  it('the template rule `boolean` accepts the plain words only', () => {
    const rules = compileRules({ type: 'boolean' }, 'out');
    const refused = (v: string) => {
      const why: string[] = [];
      if (rules) checkValue(rules, v, 1, (_rule, message) => why.push(message));
      return why.length > 0;
    };
    expect(PLAIN_BOOLEAN_WORDS.filter(refused)).toEqual([]);
    expect(['TRUE', 'No', 'Y'].filter(refused)).toEqual([]);
    expect(['ja', '✓', 'maybe'].filter(refused)).toEqual(['ja', '✓', 'maybe']);
  });
});
