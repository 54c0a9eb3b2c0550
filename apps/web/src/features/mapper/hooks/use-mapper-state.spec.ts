import { describe, expect, it } from '@jest/globals';
import type { MappingPair } from '@csv-mapper/contracts';
import {
  initialMapperState,
  mapperReducer,
  type MapperAction,
  type MapperFile,
  type MapperState,
} from './use-mapper-state';

// Spec §4: the wizard's steps, the mapping rule, removing files and loading a saved mapping.

const template: MapperFile = {
  id: 'tpl-1',
  filename: 'customers-template.csv',
  headers: ['Name', 'Email', 'Phone'],
  type: 'template',
  uploadedAt: '2026-01-01T00:00:00.000Z',
  rowCount: 0,
};
const data: MapperFile = {
  id: 'data-1',
  filename: 'export.csv',
  headers: ['Full Name', 'Email', 'Phone', 'Notes'],
  data: [['Ada Lovelace', 'ada@example.com', '+44 20 7946 0000', 'first']],
  type: 'data',
  uploadedAt: '2026-01-01T00:00:01.000Z',
  rowCount: 1,
};
const result = {
  csvData: 'Name\r\nAda\r\n',
  filename: 'mapped_export.csv',
  rowsProcessed: 1,
  totalRowsInFile: 1,
  limitExceeded: false,
  limitType: null,
  warningCount: 0,
  warnings: [],
  controlTotals: [],
};

const run = (...actions: MapperAction[]): MapperState => actions.reduce(mapperReducer, initialMapperState);
const pair = (templateColumn: string, dataColumn: string): MappingPair => ({ templateColumn, dataColumn });
/** What POST /api/mappings/suggest gave for template × data (without confidence and reason). */
const fromServer = {
  templateId: 'tpl-1',
  dataId: 'data-1',
  mappings: [
    pair('Name', 'Full Name'),
    pair('Email', 'Email'),
    { templateColumn: 'Phone', dataColumn: '', empty: true },
  ] as MappingPair[],
};
/** Both files in, every suggestion dropped: an empty board at step 3. */
const bothFiles = (): MapperAction[] => [
  { type: 'templateUploaded', file: template },
  { type: 'dataUploaded', file: data },
  { type: 'clearSuggestions' },
];

describe('wizard steps', () => {
  it('starts at step 1 with nothing uploaded', () => {
    expect(initialMapperState).toMatchObject({ step: 1, template: null, data: null, mappings: [] });
  });

  it('moves to step 2 after the template upload and to step 3 after the data upload', () => {
    const afterTemplate = run({ type: 'templateUploaded', file: template });
    expect(afterTemplate.step).toBe(2);
    expect(mapperReducer(afterTemplate, { type: 'dataUploaded', file: data }).step).toBe(3);
  });

  it('refuses to jump ahead to a step whose files are missing', () => {
    expect(run({ type: 'goTo', step: 2 }).step).toBe(1);
    expect(run({ type: 'templateUploaded', file: template }, { type: 'goTo', step: 3 }).step).toBe(2);
    expect(run({ type: 'goTo', step: 4 }).step).toBe(1);
  });

  it('lets the user go back to an earlier step and forward again to one the files allow', () => {
    const atStep3 = run(...bothFiles());
    const back = mapperReducer(atStep3, { type: 'goTo', step: 1 });
    expect(back.step).toBe(1);
    expect(mapperReducer(back, { type: 'goTo', step: 3 }).step).toBe(3);
    expect(mapperReducer(back, { type: 'goTo', step: 2 }).step).toBe(2);
  });

  it('goes to step 4 on Generate, keeps the result when processed, and returns to step 3 on failure', () => {
    const generating = run(...bothFiles(), { type: 'generate' });
    expect(generating.step).toBe(4);
    const done = mapperReducer(generating, { type: 'processed', result });
    expect(done).toMatchObject({ step: 4, result });
    expect(mapperReducer(generating, { type: 'processFailed' }).step).toBe(3);
  });

  it('Process Another File resets everything to step 1', () => {
    const done = run(...bothFiles(), { type: 'generate' }, { type: 'processed', result });
    expect(mapperReducer(done, { type: 'reset' })).toEqual(initialMapperState);
  });
});

describe('the mapping rule', () => {
  it('a drop maps the data column onto the template column', () => {
    const s = run(...bothFiles(), { type: 'map', dataColumn: 'Full Name', templateColumn: 'Name' });
    expect(s.mappings).toEqual([pair('Name', 'Full Name')]);
  });

  it('a drop replaces the earlier mapping of that template column', () => {
    const s = run(
      ...bothFiles(),
      { type: 'map', dataColumn: 'Notes', templateColumn: 'Name' },
      { type: 'map', dataColumn: 'Full Name', templateColumn: 'Name' },
    );
    expect(s.mappings).toEqual([pair('Name', 'Full Name')]);
  });

  it('a drop moves a data column that was mapped elsewhere, so each is mapped at most once', () => {
    const s = run(
      ...bothFiles(),
      { type: 'map', dataColumn: 'Email', templateColumn: 'Name' },
      { type: 'map', dataColumn: 'Email', templateColumn: 'Email' },
    );
    expect(s.mappings).toEqual([pair('Email', 'Email')]);
  });

  it('unmap removes only that template column’s mapping', () => {
    const s = run(
      ...bothFiles(),
      { type: 'map', dataColumn: 'Full Name', templateColumn: 'Name' },
      { type: 'map', dataColumn: 'Email', templateColumn: 'Email' },
      { type: 'unmap', templateColumn: 'Name' },
    );
    expect(s.mappings).toEqual([pair('Email', 'Email')]);
  });

  it("fills an empty board with the server's suggestions, marked as unconfirmed until accepted", () => {
    const uploaded = run({ type: 'templateUploaded', file: template }, { type: 'dataUploaded', file: data });
    expect(uploaded.mappings).toEqual([]);
    const s = mapperReducer(uploaded, { type: 'suggestionsLoaded', ...fromServer });
    expect(s.mappings).toEqual(fromServer.mappings);
    expect(s.suggested).toEqual(['Name', 'Email', 'Phone']);
    const accepted = mapperReducer(s, { type: 'acceptSuggestions' });
    expect(accepted.suggested).toEqual([]);
    expect(accepted.mappings).toEqual(s.mappings);
    expect(mapperReducer(s, { type: 'clearSuggestions' }).mappings).toEqual([]);
  });

  it('ignores suggestions for other files, and never overwrites pairs already on the board', () => {
    const uploaded = run({ type: 'templateUploaded', file: template }, { type: 'dataUploaded', file: data });
    expect(mapperReducer(uploaded, { type: 'suggestionsLoaded', ...fromServer, dataId: 'old' })).toBe(
      uploaded,
    );
    const dropped = mapperReducer(uploaded, { type: 'map', dataColumn: 'Notes', templateColumn: 'Name' });
    expect(mapperReducer(dropped, { type: 'suggestionsLoaded', ...fromServer })).toBe(dropped);
  });

  it('"Leave empty" replaces a pair with an empty one that counts as mapped; a drop maps it again', () => {
    const s = run(
      ...bothFiles(),
      { type: 'map', dataColumn: 'Phone', templateColumn: 'Phone' },
      {
        type: 'leaveEmpty',
        templateColumn: 'Phone',
      },
    );
    expect(s.mappings).toEqual([{ templateColumn: 'Phone', dataColumn: '', empty: true }]);
    const again = mapperReducer(s, { type: 'map', dataColumn: 'Phone', templateColumn: 'Phone' });
    expect(again.mappings).toEqual([pair('Phone', 'Phone')]);
  });

  it('a constant fills a template column without a data column', () => {
    const s = run(...bothFiles(), {
      type: 'setTransform',
      templateColumn: 'Phone',
      transform: { kind: 'constant', value: 'n/a' },
    });
    expect(s.mappings).toEqual([
      { templateColumn: 'Phone', dataColumn: '', transform: { kind: 'constant', value: 'n/a' } },
    ]);
  });
});

describe('removing a file resets what depends on it', () => {
  it('removing the template while a data file exists clears both and returns to step 1', () => {
    const s = run(...bothFiles(), { type: 'map', dataColumn: 'Email', templateColumn: 'Email' });
    const removed = mapperReducer(s, { type: 'removeTemplate' });
    expect(removed).toEqual(initialMapperState);
  });

  it('removing the only file (the template) returns to step 1 with no mappings', () => {
    const removed = run({ type: 'templateUploaded', file: template }, { type: 'removeTemplate' });
    expect(removed).toMatchObject({ step: 1, template: null, mappings: [], result: null });
  });

  it('removing the data file keeps the template but clears the mappings and the result', () => {
    const s = run(
      ...bothFiles(),
      { type: 'map', dataColumn: 'Email', templateColumn: 'Email' },
      { type: 'generate' },
      { type: 'processed', result },
    );
    const removed = mapperReducer(s, { type: 'removeData' });
    expect(removed).toMatchObject({
      step: 2,
      template,
      data: null,
      mappings: [],
      suggested: [],
      result: null,
    });
  });

  it('a new template upload drops the old mappings and result', () => {
    const s = run(...bothFiles(), { type: 'map', dataColumn: 'Email', templateColumn: 'Email' });
    const replaced = mapperReducer(s, { type: 'templateUploaded', file: { ...template, id: 'tpl-2' } });
    expect(replaced).toMatchObject({ step: 2, mappings: [], result: null });
  });
});

describe('loading a saved mapping', () => {
  const saved = {
    type: 'loadMapping' as const,
    name: 'Shop export',
    templateHeaders: ['Name', 'Email'],
    mappings: [pair('Name', 'Full Name'), pair('Email', 'E-mail')],
  };

  it('creates a virtual template from the saved headers and goes to step 2 without a data file', () => {
    const s = run(saved);
    expect(s.step).toBe(2);
    expect(s.template).toMatchObject({
      filename: 'Shop export',
      headers: ['Name', 'Email'],
      type: 'template',
    });
    expect(s.template?.id.startsWith('virtual-template-')).toBe(true);
    expect(s.mappings).toEqual(saved.mappings);
  });

  it('goes straight to step 3 when a data file is already uploaded', () => {
    const s = run({ type: 'dataUploaded', file: data }, saved);
    expect(s).toMatchObject({ step: 3, data, mappings: saved.mappings });
  });

  it('keeps the saved pairs whose columns the next data file has and drops the others', () => {
    const s = run(saved, { type: 'dataUploaded', file: data });
    // 'E-mail' is not a column of export.csv; 'Full Name' is
    expect(s.mappings).toEqual([pair('Name', 'Full Name')]);
    expect(s.suggested).toEqual([]);
  });
});

describe('reading a file again (the Detected panel)', () => {
  it('replaces the data file with its new reading, keeps the pairs its columns still allow, stays on the step', () => {
    const before = run(
      { type: 'templateUploaded', file: template },
      { type: 'dataUploaded', file: data },
      { type: 'map', dataColumn: 'Email', templateColumn: 'Email' },
      { type: 'map', dataColumn: 'Phone', templateColumn: 'Phone' },
      { type: 'goTo', step: 2 },
    );
    const reread: MapperFile = { ...data, headers: ['Name', 'Email'], headerRow: 2 };
    const after = mapperReducer(before, { type: 'fileReread', file: reread });
    expect(after.step).toBe(2);
    expect(after.data).toBe(reread);
    // Phone is gone from the file: its pair goes; Email stays.
    expect(before.mappings.map((m) => m.dataColumn)).toContain('Phone');
    expect(after.mappings.map((m) => m.dataColumn)).toEqual(['Email']);
  });

  it('a template read again keeps the data file and waits for new suggestions for both', () => {
    const before = run(
      { type: 'templateUploaded', file: template },
      { type: 'dataUploaded', file: data },
      { type: 'suggestionsLoaded', ...fromServer },
    );
    const reread: MapperFile = { ...template, headers: ['Email', 'Notes'] };
    const after = mapperReducer({ ...before, step: 1 }, { type: 'fileReread', file: reread });
    expect(after.step).toBe(1);
    expect(after.template).toBe(reread);
    expect(after.data).toBe(data);
    expect(after.mappings).toEqual([]);
    const next = mapperReducer(after, {
      type: 'suggestionsLoaded',
      ...fromServer,
      mappings: [pair('Email', 'Email'), pair('Notes', 'Notes')],
    });
    expect(next.suggested).toEqual(['Email', 'Notes']);
  });
});

describe('issue 22: combine pairs and template rules', () => {
  it('a combine fills a template column with no data column of its own, and a drop elsewhere keeps it', () => {
    const combine = { kind: 'combine', pattern: '{First} {Last}' } as unknown as MappingPair['transform'];
    const s = run(
      ...bothFiles(),
      { type: 'unmap', templateColumn: 'Name' },
      {
        type: 'setTransform',
        templateColumn: 'Name',
        transform: combine,
      },
    );
    expect(s.mappings).toContainEqual({ templateColumn: 'Name', dataColumn: '', transform: combine });
  });

  it('rules are set per column, cleared when emptied, and reset by a new template', () => {
    let s = run({ type: 'setRules', templateColumn: 'Name', rules: { required: true, maxLength: 100 } });
    s = mapperReducer(s, { type: 'setRules', templateColumn: 'Email', rules: { type: 'email' } });
    expect(s.templateRules).toEqual({ Name: { required: true, maxLength: 100 }, Email: { type: 'email' } });
    s = mapperReducer(s, { type: 'setRules', templateColumn: 'Name', rules: undefined });
    expect(s.templateRules).toEqual({ Email: { type: 'email' } });
    s = mapperReducer(s, { type: 'templateUploaded', file: template });
    expect(s.templateRules).toEqual({});
  });
});
