import { Card, Progress, Stack, Text } from '@chakra-ui/react';
import { useEffect } from 'react';
import { errorDescription } from '../../../lib/api-client';
import { useJob } from '../api/get-job';
import type { QueuedResponse } from '@csv-mapper/contracts';
import type { MapperResult } from '../hooks/use-mapper-state';

/** Spec §4 simulated progress: each stage 800 ms after the previous one. */
export const PROGRESS_STAGES: { percent: number; text: string }[] = [
  { percent: 15, text: 'Reading template structure...' },
  { percent: 30, text: 'Loading data file...' },
  { percent: 50, text: 'Applying column mappings...' },
  { percent: 75, text: 'Transforming data rows...' },
  { percent: 90, text: 'Generating output CSV...' },
];
export const PROGRESS_STEP_MS = 800;

export function ProcessingProgress({ percent, text }: { percent: number; text: string }) {
  return (
    <Card.Root maxW="2xl" mx="auto">
      <Card.Body gap="4" py="10">
        <Text fontWeight="semibold" textAlign="center" aria-live="polite">
          {text}
        </Text>
        <Progress.Root
          value={percent}
          colorPalette={percent === 100 ? 'green' : 'blue'}
          aria-label="Processing"
        >
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
        <Text textAlign="center" color="fg.muted" fontSize="sm">
          {percent}%
        </Text>
      </Card.Body>
    </Card.Root>
  );
}

/**
 * Step 4 for a background job: real progress polled every second; leaving the page does not lose
 * the job (the dashboard lists it). Calls onDone with a result the success view can show.
 */
export function BackgroundJobProgress({
  queued,
  onDone,
  onFailed,
}: {
  queued: QueuedResponse;
  onDone: (result: MapperResult) => void;
  onFailed: (message: string) => void;
}) {
  const { data: job, error } = useJob(queued.jobId);
  useEffect(() => {
    if (error) onFailed(errorDescription(error, 'Failed to process mapping'));
    if (!job) return;
    if (job.state === 'completed') {
      onDone({
        csvData: '',
        filename: job.filename,
        rowsProcessed: job.rowsProcessed,
        totalRowsInFile: queued.totalRowsInFile,
        limitExceeded: queued.limitExceeded,
        limitType: queued.limitType,
        warningCount: job.warnings,
        warnings: job.warningSamples ?? [],
        controlTotals: job.controlTotals ?? [],
        ...(job.totals ? { totals: job.totals } : {}),
        ...(job.output ? { output: job.output } : {}),
        downloadUrl: job.resultUrl ?? undefined,
      });
    } else if (job.state === 'failed' || job.state === 'cancelled') {
      onFailed(job.error ?? 'Failed to process mapping');
    }
  }, [job, error, queued, onDone, onFailed]);
  const percent = job?.progress ?? 0;
  const text =
    !job || job.state === 'queued'
      ? 'Queued for background processing...'
      : `Transforming data rows... ${job.rowsProcessed.toLocaleString('en-GB')} of ${job.totalRows.toLocaleString('en-GB')}`;
  return (
    <Stack gap="3">
      <ProcessingProgress percent={percent} text={text} />
      <Text textAlign="center" color="fg.muted" fontSize="sm">
        This file runs in the background. You can leave this page: the result waits on your dashboard for 1
        hour.
      </Text>
    </Stack>
  );
}
