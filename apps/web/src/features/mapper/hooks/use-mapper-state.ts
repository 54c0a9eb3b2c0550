import { useReducer } from 'react';
import { findBuiltInTemplate, VIRTUAL_TEMPLATE_PREFIX } from '@csv-mapper/domain';
import type { MappingPair, ProcessResponse, UploadRecord } from '@csv-mapper/contracts';
import { fillsWithoutDataColumn, stepsOf, type TransformValue } from '../utils/transform-chain';
import type { ColumnRules, TemplateRules } from '@csv-mapper/contracts';

// The wizard's state machine (spec §4): steps, both files, the mapping pairs (with which ones are still
// unconfirmed suggestions) and the last result. Pure reducer, so every rule lives in one place.

export type Step = 1 | 2 | 3 | 4;

/** A file in the wizard: an upload's record, or a virtual template (a built-in one or a loaded mapping's). */
export type MapperFile = Pick<
  UploadRecord,
  'id' | 'filename' | 'headers' | 'type' | 'uploadedAt' | 'rowCount'
> &
  Partial<UploadRecord>;

/** The last run: the sync answer, or a finished background job's (downloaded from `downloadUrl`). */
export type MapperResult = Omit<ProcessResponse, 'output' | 'totals'> &
  Partial<Pick<ProcessResponse, 'output' | 'totals'>> & { downloadUrl?: string };

export { VIRTUAL_TEMPLATE_PREFIX };

export interface MapperState {
  step: Step;
  template: MapperFile | null;
  data: MapperFile | null;
  mappings: MappingPair[];
  /** Template columns whose pair came from the suggester and is not confirmed yet. */
  suggested: string[];
  result: MapperResult | null;
  /** Rules the user added to the template's columns (issue 22), saved with the mapping. */
  templateRules: TemplateRules;
}

export type MapperAction =
  | { type: 'templateUploaded'; file: MapperFile }
  | { type: 'dataUploaded'; file: MapperFile }
  | { type: 'fileReread'; file: MapperFile }
  | { type: 'removeTemplate' }
  | { type: 'removeData' }
  | { type: 'goTo'; step: Step }
  | { type: 'map'; dataColumn: string; templateColumn: string }
  | { type: 'unmap'; templateColumn: string }
  /** "Leave empty": the column is written empty on purpose and counts as mapped. */
  | { type: 'leaveEmpty'; templateColumn: string }
  /** The server's suggestions (POST /api/mappings/suggest) for these files. */
  | { type: 'suggestionsLoaded'; templateId: string; dataId: string; mappings: MappingPair[] }
  | { type: 'setTransform'; templateColumn: string; transform: TransformValue }
  | { type: 'acceptSuggestions' }
  | { type: 'clearSuggestions' }
  | { type: 'setMappings'; mappings: MappingPair[] }
  | { type: 'setRules'; templateColumn: string; rules: ColumnRules | undefined }
  | {
      type: 'loadMapping';
      name: string;
      templateHeaders: string[];
      mappings: MappingPair[];
      templateRules?: TemplateRules;
    }
  | { type: 'generate' }
  | { type: 'processed'; result: MapperResult }
  | { type: 'processFailed' }
  | { type: 'reset' };

export const initialMapperState: MapperState = {
  step: 1,
  template: null,
  data: null,
  mappings: [],
  suggested: [],
  result: null,
  templateRules: {},
};

/** A pair that reads no single data column (constant, debit + credit) does not "use" its dataColumn. */
function usesDataColumn(p: MappingPair): boolean {
  return !fillsWithoutDataColumn(p.transform) && p.dataColumn !== '';
}

/** The built-in template behind a virtual template id, if any (for default transforms). */
export function builtInOf(template: MapperFile | null) {
  if (!template?.id.startsWith(VIRTUAL_TEMPLATE_PREFIX)) return undefined;
  return findBuiltInTemplate(template.id.slice(VIRTUAL_TEMPLATE_PREFIX.length));
}

function defaultTransform(template: MapperFile | null, templateColumn: string): TransformValue {
  return builtInOf(template)?.columns.find((c) => c.name === templateColumn)?.defaultTransform;
}

/** Spec §4 mapping rule: the drop replaces any mapping of that template column and of that data column. */
export function applyDrop(
  mappings: MappingPair[],
  dataColumn: string,
  templateColumn: string,
  transform?: TransformValue,
): MappingPair[] {
  const kept = mappings.filter(
    (p) => p.templateColumn !== templateColumn && !(usesDataColumn(p) && p.dataColumn === dataColumn),
  );
  return [...kept, { templateColumn, dataColumn, ...(transform ? { transform } : {}) }];
}

/** Keeps only pairs that still make sense for these files (e.g. a loaded mapping on a new data file). */
function validPairs(mappings: MappingPair[], template: MapperFile, data: MapperFile): MappingPair[] {
  const t = new Set(template.headers);
  const d = new Set(data.headers);
  return mappings.filter((p) => {
    if (!t.has(p.templateColumn)) return false;
    if (p.empty) return true;
    const tr = stepsOf(p.transform)[0];
    if (tr?.kind === 'constant') return true;
    if (tr?.kind === 'debitCredit') return d.has(tr.debitColumn) && d.has(tr.creditColumn);
    if (tr?.kind === 'combine') return true;
    if (tr?.kind === 'coalesce') return tr.columns.every((c) => d.has(c));
    return d.has(p.dataColumn);
  });
}

export function mapperReducer(state: MapperState, action: MapperAction): MapperState {
  switch (action.type) {
    case 'templateUploaded':
      return {
        ...state,
        template: action.file,
        mappings: [],
        suggested: [],
        result: null,
        templateRules: {},
        step: 2,
      };
    case 'dataUploaded': {
      const template = state.template;
      if (!template) return { ...state, data: action.file, step: 3 };
      // Pairs that still fit are kept; otherwise the board waits for the server's suggestions.
      const kept = validPairs(state.mappings, template, action.file);
      return { ...state, data: action.file, mappings: kept, suggested: [], result: null, step: 3 };
    }
    case 'suggestionsLoaded': {
      // Only for the files asked about, and only onto an empty board (a loaded mapping or a drop wins).
      if (state.template?.id !== action.templateId || state.data?.id !== action.dataId) return state;
      if (state.mappings.length > 0) return state;
      const columns = new Set(state.template.headers);
      const mappings = action.mappings.filter((p) => columns.has(p.templateColumn));
      return { ...state, mappings, suggested: mappings.map((p) => p.templateColumn) };
    }
    case 'leaveEmpty':
      return {
        ...state,
        mappings: [
          ...state.mappings.filter((p) => p.templateColumn !== action.templateColumn),
          { templateColumn: action.templateColumn, dataColumn: '', empty: true },
        ],
        suggested: state.suggested.filter((c) => c !== action.templateColumn),
      };
    case 'fileReread': {
      // The same upload read another way (header row, sheet, delimiter…): stay on this step.
      let next: MapperState;
      if (action.file.type === 'template') {
        next = mapperReducer(state, { type: 'templateUploaded', file: action.file });
        if (state.data) next = mapperReducer(next, { type: 'dataUploaded', file: state.data });
      } else {
        next = mapperReducer(state, { type: 'dataUploaded', file: action.file });
      }
      return { ...next, step: state.step };
    }
    case 'removeTemplate':
      return state.data
        ? { ...initialMapperState }
        : { ...state, template: null, mappings: [], suggested: [], result: null, step: 1 };
    case 'removeData':
      return { ...state, data: null, mappings: [], suggested: [], result: null, step: 2 };
    case 'goTo': {
      const s = action.step;
      const allowed =
        s <= state.step ||
        (s === 2 && state.template !== null) ||
        (s === 3 && state.template !== null && state.data !== null);
      return allowed ? { ...state, step: s } : state;
    }
    case 'map': {
      const existing = state.mappings.find((p) => p.templateColumn === action.templateColumn);
      const transform =
        existing?.transform && !fillsWithoutDataColumn(existing.transform)
          ? existing.transform
          : defaultTransform(state.template, action.templateColumn);
      return {
        ...state,
        mappings: applyDrop(state.mappings, action.dataColumn, action.templateColumn, transform),
        suggested: state.suggested.filter((c) => c !== action.templateColumn),
      };
    }
    case 'unmap':
      return {
        ...state,
        mappings: state.mappings.filter((p) => p.templateColumn !== action.templateColumn),
        suggested: state.suggested.filter((c) => c !== action.templateColumn),
      };
    case 'setTransform': {
      const { templateColumn, transform } = action;
      const existing = state.mappings.find((p) => p.templateColumn === templateColumn);
      const others = state.mappings.filter((p) => p.templateColumn !== templateColumn);
      if (!existing) {
        // constant and debit + credit fill a template column without a dragged data column
        if (fillsWithoutDataColumn(transform)) {
          return { ...state, mappings: [...others, { templateColumn, dataColumn: '', transform }] };
        }
        return state;
      }
      const next: MappingPair = {
        templateColumn,
        dataColumn: existing.dataColumn,
        ...(transform ? { transform } : {}),
      };
      if (!transform && !existing.dataColumn) return { ...state, mappings: others };
      return {
        ...state,
        mappings: state.mappings.map((p) => (p.templateColumn === templateColumn ? next : p)),
        suggested: state.suggested.filter((c) => c !== templateColumn),
      };
    }
    case 'acceptSuggestions':
      return { ...state, suggested: [] };
    case 'clearSuggestions': {
      const drop = new Set(state.suggested);
      return { ...state, mappings: state.mappings.filter((p) => !drop.has(p.templateColumn)), suggested: [] };
    }
    case 'setMappings':
      return { ...state, mappings: action.mappings, suggested: [] };
    case 'setRules': {
      const { [action.templateColumn]: _old, ...rest } = state.templateRules;
      const empty = !action.rules || Object.keys(action.rules).length === 0;
      return {
        ...state,
        templateRules: empty ? rest : { ...rest, [action.templateColumn]: action.rules as ColumnRules },
      };
    }
    case 'loadMapping': {
      const template: MapperFile = {
        id: `${VIRTUAL_TEMPLATE_PREFIX}${Date.now()}`,
        filename: action.name,
        headers: action.templateHeaders,
        type: 'template',
        rowCount: 0,
        uploadedAt: new Date().toISOString(),
      };
      return {
        ...state,
        template,
        mappings: action.mappings,
        suggested: [],
        result: null,
        templateRules: action.templateRules ?? {},
        step: state.data ? 3 : 2,
      };
    }
    case 'generate':
      return { ...state, step: 4, result: null };
    case 'processed':
      return { ...state, result: action.result, step: 4 };
    case 'processFailed':
      return { ...state, step: 3 };
    case 'reset':
      return { ...initialMapperState };
  }
}

export function useMapperState() {
  return useReducer(mapperReducer, initialMapperState);
}
