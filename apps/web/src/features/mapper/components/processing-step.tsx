import { Box, Button, Card, HStack, Link, Progress, Stack, Table, Text } from '@chakra-ui/react';
import { CircleCheckIcon, DownloadIcon } from '../../../components/icons';
import { useEffect } from 'react';
import { errorDescription } from '../../../lib/api-client';
import { useJob } from '../api/get-job';
import type { QueuedResponse } from '@csv-mapper/contracts';
import type { MapperResult } from '../hooks/use-mapper-state';
import { downloadText, warningsCsv } from '../utils/download';

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

export function ProcessingSuccess({ result, onReset }: { result: MapperResult; onReset: () => void }) {
  return (
    <Card.Root maxW="3xl" mx="auto">
      <Card.Body gap="5" py="8">
        <Stack align="center" gap="2" textAlign="center">
          <CircleCheckIcon boxSize="10" color="green.fg" />
          <Text fontSize="xl" fontWeight="semibold">
            Complete!
          </Text>
          <Text wordBreak="break-all" data-testid="output-filename">
            {result.filename}
          </Text>
          <Text color="fg.muted">
            {result.rowsProcessed.toLocaleString('en-GB')} rows processed
            {result.rowsProcessed < result.totalRowsInFile
              ? ` of ${result.totalRowsInFile.toLocaleString('en-GB')} in the file`
              : ''}
          </Text>
        </Stack>
        {result.controlTotals.length > 0 ? (
          <Box overflowX="auto">
            <Text fontWeight="semibold" mb="2">
              Control totals
            </Text>
            <Table.Root size="sm" variant="outline">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Column</Table.ColumnHeader>
                  <Table.ColumnHeader>From</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Source total</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Output total</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Values</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {result.controlTotals.map((t) => (
                  <Table.Row key={t.column}>
                    <Table.Cell>{t.column}</Table.Cell>
                    <Table.Cell>{t.sourceColumns.join(' / ')}</Table.Cell>
                    <Table.Cell textAlign="end">{t.sourceTotal}</Table.Cell>
                    <Table.Cell textAlign="end">{t.outputTotal}</Table.Cell>
                    <Table.Cell textAlign="end">
                      {t.values}
                      {t.unreadable > 0 ? ` (+${t.unreadable} unreadable)` : ''}
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Box>
        ) : null}
        {result.warningCount > 0 ? (
          <Box borderWidth="1px" borderColor="orange.muted" bg="orange.subtle" borderRadius="md" p="4">
            <Text fontWeight="semibold">
              {result.warningCount === 1
                ? '1 value could not be read and was left unchanged'
                : `${result.warningCount} values could not be read and were left unchanged`}
            </Text>
            <Stack as="ul" gap="1" mt="2" fontSize="sm" ps="4">
              {result.warnings.slice(0, 5).map((w, i) => (
                <li key={i}>
                  Row {w.row}
                  {w.column ? `, ${w.column}` : ''}: "{w.value}" — {w.reason}
                </li>
              ))}
            </Stack>
            <Link
              as="button"
              mt="2"
              fontSize="sm"
              colorPalette="orange"
              onClick={() =>
                downloadText(
                  warningsCsv(result.warnings),
                  result.filename.replace(/\.csv$/i, '_warnings.csv'),
                )
              }
            >
              Download warnings CSV
              {result.warningCount > result.warnings.length ? ` (first ${result.warnings.length})` : ''}
            </Link>
          </Box>
        ) : null}
        <HStack justify="center" gap="3" flexWrap="wrap">
          {result.downloadUrl ? (
            <Button asChild colorPalette="blue">
              <a href={result.downloadUrl} download={result.filename}>
                <DownloadIcon /> Download CSV
              </a>
            </Button>
          ) : (
            <Button colorPalette="blue" onClick={() => downloadText(result.csvData, result.filename)}>
              <DownloadIcon /> Download CSV
            </Button>
          )}
          <Button variant="outline" onClick={onReset}>
            Process Another File
          </Button>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}
