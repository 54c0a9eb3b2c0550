import { useCallback, useState, type Dispatch } from 'react';
import type { QueuedResponse } from '@csv-mapper/contracts';
import { showToast } from '../../../components/toaster';
import { processMapping, type ProcessBody } from '../api/process-mapping';
import { PROGRESS_STAGES, PROGRESS_STEP_MS } from '../components/processing-step';
import type { WizardBulk } from '../types';
import { requestOptions, type OutputChoice } from '../utils/output-options';
import type { ApiErrorReporter } from './use-api-error';
import type { MapperAction, MapperResult } from './use-mapper-state';

const sleep = (ms: number) => new Promise((r) => window.setTimeout(r, ms));

/**
 * Generate CSV (spec §4 step 4): a sync run with the simulated progress stages, a background job (202) the
 * wizard polls, or — with extra data files — one batch. Also the Limit Reached dialog after a capped run.
 */
export function useGenerate({
  request,
  templateHeaders,
  dispatch,
  bulk,
  reportError,
}: {
  request: ProcessBody | null;
  templateHeaders: string[];
  dispatch: Dispatch<MapperAction>;
  bulk: WizardBulk;
  reportError: ApiErrorReporter;
}) {
  const [progress, setProgress] = useState(PROGRESS_STAGES[0]);
  const [queued, setQueued] = useState<QueuedResponse | null>(null);
  const [reviewJobId, setReviewJobId] = useState<string | null>(null);
  const [limitOpen, setLimitOpen] = useState(false);

  const finish = useCallback(
    (res: MapperResult) => {
      setQueued(null);
      setProgress({ percent: 100, text: 'Complete!' });
      dispatch({ type: 'processed', result: res });
      if (res.limitExceeded && res.rowsProcessed < res.totalRowsInFile) {
        setLimitOpen(true);
        showToast({
          title: 'CSV generated with limits',
          description: `Processed ${res.rowsProcessed} of ${res.totalRowsInFile} rows due to plan limits.`,
          type: 'error',
        });
      } else {
        showToast({
          title: 'CSV generated successfully',
          description: `${res.rowsProcessed} rows processed`,
          type: 'success',
        });
      }
    },
    [dispatch],
  );

  const jobFailed = useCallback(
    (message: string) => {
      setQueued(null);
      dispatch({ type: 'processFailed' });
      showToast({ title: 'Processing failed', description: message, type: 'error' });
    },
    [dispatch],
  );

  const refuse = (description: string) =>
    showToast({ title: 'Processing failed', description, type: 'error' });

  const generate = async (choice: OutputChoice) => {
    const options = requestOptions(choice);
    const body = request ? { ...request, ...(options ? { options } : {}) } : null;
    if (!body) return refuse('Please upload both template and data files');
    const missing = templateHeaders.filter((h) => !body.mappings.some((m) => m.templateColumn === h));
    if (missing.length > 0) return refuse(`Please map all template columns: ${missing.join(', ')}`);
    dispatch({ type: 'generate' });
    if (bulk.fileIds.length > 0) {
      const { dataFileId, ...rest } = body;
      try {
        await bulk.start({ ...rest, dataFileIds: [dataFileId, ...bulk.fileIds] });
      } catch (err) {
        dispatch({ type: 'processFailed' });
        reportError(err, 'Processing failed', 'The bulk upload could not be started.');
      }
      return;
    }
    setReviewJobId(null);
    setProgress(PROGRESS_STAGES[0]);
    const stages = (async () => {
      for (let i = 1; i < PROGRESS_STAGES.length; i++) {
        await sleep(PROGRESS_STEP_MS);
        setProgress(PROGRESS_STAGES[i]);
      }
      await sleep(PROGRESS_STEP_MS);
    })();
    try {
      const res = await processMapping(body);
      if ('jobId' in res) {
        setQueued(res);
        setReviewJobId(res.jobId);
        return;
      }
      await stages;
      finish(res);
    } catch (err) {
      dispatch({ type: 'processFailed' });
      reportError(err, 'Processing failed', 'Failed to process mapping');
    }
  };

  return {
    generate,
    /** Step 4 while a sync run is under way: the simulated stage. */
    progress,
    /** A background job (202) the wizard polls until `finish` or `jobFailed`. */
    queued,
    finish,
    jobFailed,
    /** The job whose problems the review grid pages through (background runs). */
    reviewJobId,
    limitOpen,
    closeLimit: () => setLimitOpen(false),
  };
}
