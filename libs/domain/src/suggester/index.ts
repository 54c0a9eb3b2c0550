// The suggester: which data column (or combination of columns) feeds each template column, with the
// transform that reads it, a confidence 0–1 and one sentence saying why (suggest.ts, where the evidence is
// weighed). Its parts: types.ts (what it is asked and answers), reading.ts (a header's meanings in the
// lexicon, a file's kind), values.ts (sample values as evidence), transforms.ts (inferred and template
// transforms), words.ts (name similarity, word sets, the reason's wording).
export { normaliseHeader } from '../lexicon';
export type { ColumnSuggestion, SignFromColumn, SuggestedTransform, SuggestInput } from './types';
export { readHeader } from './reading';
export { mergeTransforms } from './transforms';
export { meaningLabel, prepareSuggester, suggestColumnMappings } from './suggest';
