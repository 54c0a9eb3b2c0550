// coalesce ("first non-empty of columns A, B, C") and columns left empty on purpose, through the engine's
// entry point (applyMappingToBuffer), streamed in small chunks.
import { Readable } from 'node:stream';
import { applyMappingToBuffer } from '../../mapping';
import { pairSources, validateMappings } from '../compile';
import type { MappingPair } from '../../types';

async function run(csv: string, headers: string[], pairs: unknown[], chunk = 7) {
  const parts: Buffer[] = [];
  const b = Buffer.from(csv);
  for (let i = 0; i < b.length; i += chunk) parts.push(b.subarray(i, i + chunk));
  const { data, stats } = await applyMappingToBuffer(Readable.from(parts), headers, pairs as MappingPair[], {
    lineEnding: '\n',
  });
  return { text: data.toString('utf8'), stats };
}

const phones = [
  'Name,Mobile,Home Phone,Work Phone',
  'Ada,+44 7700 900123,,020 7946 0000',
  'Bo,,"  ",555-0100',
  'Cy,,020 7946 0001,',
  'Di,,,',
].join('\n');

describe('coalesce', () => {
  it('writes the first non-blank of the columns, in the order given', async () => {
    const { text } = await run(
      phones,
      ['Name', 'Phone'],
      [
        { templateColumn: 'Name', dataColumn: 'Name' },
        {
          templateColumn: 'Phone',
          dataColumn: '',
          transform: { kind: 'coalesce', columns: ['Mobile', 'Home Phone', 'Work Phone'] },
        },
      ],
    );
    expect(text).toBe('Name,Phone\nAda,+44 7700 900123\nBo,555-0100\nCy,020 7946 0001\nDi,\n');
  });

  it('leads a chain: the chosen value goes through the steps after it', async () => {
    const { text } = await run(
      phones,
      ['Phone'],
      [
        {
          templateColumn: 'Phone',
          dataColumn: '',
          transform: [
            { kind: 'coalesce', columns: ['Work Phone', 'Mobile'] },
            { kind: 'replace', find: ' ', replace: '' },
            { kind: 'default', value: 'none' },
          ],
        },
      ],
    );
    expect(text).toBe('Phone\n02079460000\n555-0100\nnone\nnone\n');
  });

  it('names the template column when a column is unknown, and must be first in a chain', async () => {
    await expect(
      run(
        phones,
        ['Phone'],
        [
          {
            templateColumn: 'Phone',
            dataColumn: '',
            transform: { kind: 'coalesce', columns: ['Mobile', 'Fax'] },
          },
        ],
      ),
    ).rejects.toThrow('"Fax" (mapped to "Phone") is not a column of the data file.');
    expect(() =>
      validateMappings(
        ['Phone'],
        [
          {
            templateColumn: 'Phone',
            dataColumn: 'Mobile',
            transform: [{ kind: 'trim' }, { kind: 'coalesce', columns: ['Mobile'] }],
          },
        ],
      ),
    ).toThrow(/"coalesce" for "Phone".*first transform/);
    expect(() =>
      validateMappings(
        ['Phone'],
        [{ templateColumn: 'Phone', dataColumn: '', transform: { kind: 'coalesce', columns: [] } }],
      ),
    ).toThrow(/coalesce for "Phone" needs the data columns/);
  });

  it('reads its columns without claiming them (another pair may use one)', () => {
    const pair = {
      templateColumn: 'Phone',
      dataColumn: '',
      transform: { kind: 'coalesce', columns: ['Mobile', 'Home Phone', 'Mobile'] },
    } as MappingPair;
    expect(pairSources(pair)).toEqual({ columns: ['Mobile', 'Home Phone'], exclusive: false });
  });
});

describe('columns left empty on purpose', () => {
  it('writes the column empty and lists it in the stats', async () => {
    const { text, stats } = await run(
      phones,
      ['Name', 'Address', 'Phone'],
      [
        { templateColumn: 'Name', dataColumn: 'Name' },
        { templateColumn: 'Address', dataColumn: '', empty: true },
        { templateColumn: 'Phone', dataColumn: 'Mobile' },
      ],
    );
    expect(text).toBe('Name,Address,Phone\nAda,,+44 7700 900123\nBo,,\nCy,,\nDi,,\n');
    expect(stats.emptyColumns).toEqual(['Address']);
    expect(pairSources({ templateColumn: 'Address', dataColumn: '', empty: true })).toEqual({
      columns: [],
      exclusive: false,
    });
  });

  it('a pair with no data column that is not left empty says what to do', () => {
    expect(() => validateMappings(['Address'], [{ templateColumn: 'Address', dataColumn: '' }])).toThrow(
      '"Address" has no data column: choose one, or leave the column empty on purpose ("empty": true).',
    );
  });

  it('refuses a pair that is empty and reads a column too', () => {
    expect(() =>
      validateMappings(['Address'], [{ templateColumn: 'Address', dataColumn: 'Name', empty: true }]),
    ).toThrow(
      '"Address" is left empty on purpose: send it without a data column and transform, or drop "empty".',
    );
  });
});
