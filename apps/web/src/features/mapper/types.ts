import type { ReactNode } from 'react';
import type { TemplateRules, Warning } from '@csv-mapper/contracts';
import type { ProcessBody } from './api/process-mapping';
import type { MapperFile } from './hooks/use-mapper-state';

// What the wizard asks of the features the page composes with it (bulk uploads, the review grid). The
// wizard knows these shapes only; the page (pages/csv-mapper) fills them from the batches and review features.

/** One run over several data files: the mapper's request with every data file's id. */
export type BatchStartBody = Omit<ProcessBody, 'dataFileId'> & { dataFileIds: string[] };

/** Bulk uploads (plans with background processing): more data files for the same mapping, one batch. */
export interface WizardBulk {
  /** The data drop zone takes several files. */
  allowed: boolean;
  /** The extra data files' ids (the first data file stays the wizard's). */
  fileIds: string[];
  uploading: boolean;
  /** Extra files picked together with the first data file. */
  addExtras: (files: File[]) => Promise<void>;
  /** Forgets the extra files; `deleteUploads` also deletes them. */
  clear: (deleteUploads: boolean) => void;
  /** Starts the batch (rejects with the api's error). */
  start: (body: BatchStartBody) => Promise<void>;
  /** Step 3's list of the extra files under the first one. */
  panel: (primary: MapperFile) => ReactNode;
  /** Step 4 of a started batch (`onReset` starts over), or null when none was started. */
  progress: (onReset: () => void) => ReactNode;
}

/** What the review grid of step 4 gets: the run's columns, rules and problems. */
export interface WizardReview {
  columns: string[];
  rules: TemplateRules;
  filename: string;
  csvData?: string;
  warnings?: Warning[];
  jobId?: string;
}
