// Source drift (issue 30): how an uploaded data file's columns differ from those a matching saved mapping
// was saved with, carried by the upload answer's matchingMappings[] entries.

/** A column of the saved source that the new file has under another name. */
export class RenamedColumn {
  /** The name the mapping was saved with. @example "Amount" */
  from: string;
  /** The name in this file. @example "Amount (EUR)" */
  to: string;
}

/** What changed in the source since the mapping was saved; all empty when nothing did. */
export class SourceChanges {
  /** Columns of this file the saved source did not have. @example ["Category"] */
  added: string[];
  /** Columns of the saved source this file lacks (and nothing replaces). */
  removed: string[];
  /** Columns found under a new name (by the suggester's reading of names and values). */
  renamed: RenamedColumn[];
}
