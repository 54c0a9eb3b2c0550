import { useState } from 'react';
import { createBatch, type BatchBody } from '../api/batches';
import { useBulkFiles } from './use-bulk-files';

/** A bulk upload from the mapper: its extra data files, then the batch they run as (its id once started). */
export function useBulkUpload() {
  const files = useBulkFiles();
  const [batchId, setBatchId] = useState<string | null>(null);
  const clearFiles = files.clear;
  return {
    ...files,
    batchId,
    /** POST /api/batches; rejects with the api's error. */
    start: async (body: BatchBody) => {
      const created = await createBatch(body);
      setBatchId(created.batchId);
    },
    /** Start over: the batch is left to run, its files are forgotten (not deleted). */
    finish: () => {
      setBatchId(null);
      clearFiles(false);
    },
  };
}
