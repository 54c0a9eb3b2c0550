import { describe, expect, it } from '@jest/globals';
import { VIRTUAL_TEMPLATE_PREFIX, type MapperFile } from '../hooks/use-mapper-state';
import { processBody, reviewRulesOf } from './wizard-request';

// The run's request the wizard sends for the preview, Generate CSV and a batch, and the rules its review
// grid checks edits against.

const file = (id: string, type: 'template' | 'data', headers: string[]): MapperFile => ({
  id,
  filename: `${id}.csv`,
  headers,
  type,
  uploadedAt: '2026-01-01T00:00:00.000Z',
  rowCount: 0,
});
const template = file('tpl-1', 'template', ['Name', 'Total']);
const data = file('data-1', 'data', ['Full Name', 'Amount']);
const mappings = [{ templateColumn: 'Name', dataColumn: 'Full Name' }];

describe('processBody', () => {
  it('is null until both files are in', () => {
    expect(processBody({ template, data: null, mappings, templateRules: {} }, undefined)).toBeNull();
    expect(processBody({ template: null, data, mappings, templateRules: {} }, undefined)).toBeNull();
  });

  it('sends the two uploads and the pairs; no saved mapping, headers or rules when there are none', () => {
    expect(processBody({ template, data, mappings, templateRules: {} }, undefined)).toEqual({
      templateFileId: 'tpl-1',
      dataFileId: 'data-1',
      mappings,
    });
  });

  it("adds the saved mapping in use, a built-in template's headers and the user's rules", () => {
    const builtIn = { ...template, id: `${VIRTUAL_TEMPLATE_PREFIX}shopify-products` };
    const templateRules = { Total: { type: 'number' as const } };
    expect(processBody({ template: builtIn, data, mappings, templateRules }, 'saved-7')).toEqual({
      templateFileId: builtIn.id,
      dataFileId: 'data-1',
      mappings,
      mappingId: 'saved-7',
      templateHeaders: ['Name', 'Total'],
      templateRules,
    });
  });
});

describe('reviewRulesOf', () => {
  it("is the user's rules for an uploaded template", () => {
    const templateRules = { Total: { type: 'number' as const } };
    expect(reviewRulesOf({ template, templateRules })).toEqual(templateRules);
  });

  it("takes a built-in template's own rules, the user's rules winning per column", () => {
    const builtIn = { ...template, id: `${VIRTUAL_TEMPLATE_PREFIX}shopify-products` };
    const rules = reviewRulesOf({ template: builtIn, templateRules: { Title: { maxLength: 10 } } });
    expect(rules.Handle).toEqual({ required: true, maxLength: 255 });
    expect(rules.Title).toEqual({ maxLength: 10 });
  });
});
