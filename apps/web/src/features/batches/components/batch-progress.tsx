import { Alert, Button, Card, HStack, Heading, Progress, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { BatchFileView, BatchRejection, BatchView } from '@csv-mapper/contracts';
import { JOB_STATE_BADGE, ProgressRow } from '../../../components/progress-list';
import { useBatch } from '../api/batches';

const n = (v: number) => v.toLocaleString('en-GB');

/** "2 of 3 files finished · 1,200 of 1,500 rows". */
export function batchSummary(b: Pick<BatchView, 'totals'>): string {
  const t = b.totals;
  const finished = t.completed + t.failed + t.cancelled;
  return `${finished} of ${t.files} file${t.files === 1 ? '' : 's'} finished · ${n(t.rowsProcessed)} of ${n(t.totalRows)} rows`;
}

function FileRow({ file }: { file: BatchFileView }) {
  const running = file.state === 'queued' || file.state === 'active';
  return (
    <ProgressRow
      testId="batch-file"
      title={file.filename}
      titleText={file.filename}
      badge={JOB_STATE_BADGE[file.state]}
      progress={running ? { value: file.progress, label: `Progress of ${file.filename}` } : undefined}
      summary={
        <>
          {n(file.rowsProcessed)} of {n(file.totalRows)} rows
          {file.warnings > 0 ? ` · ${n(file.warnings)} warnings` : ''}
        </>
      }
      download={
        file.resultUrl ? { href: file.resultUrl, label: 'Download CSV', color: 'blue.fg' } : undefined
      }
      error={file.error ? { text: file.error, color: 'red.fg' } : undefined}
    />
  );
}

/** Files the batch left out, each with the reason (the other files ran). */
export function RejectedFiles({ rejected }: { rejected: BatchRejection[] }) {
  if (rejected.length === 0) return null;
  return (
    <Alert.Root status="warning" data-testid="batch-rejected">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          {rejected.length === 1 ? '1 file was not processed' : `${rejected.length} files were not processed`}
        </Alert.Title>
        <Alert.Description>
          <Stack as="ul" gap="1" m="0" p="0">
            {rejected.map((r) => (
              <Text as="li" listStyleType="none" key={r.dataFileId} fontSize="sm">
                <Text as="span" fontWeight="semibold">
                  {r.filename ?? r.dataFileId}
                </Text>
                : {r.reason}
              </Text>
            ))}
          </Stack>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

export interface BatchProgressProps {
  batchId: string;
  onReset: () => void;
}

/** Step 4 of a bulk upload: each file's progress, the batch total, then one ZIP and per-file downloads. */
export function BatchProgress({ batchId, onReset }: BatchProgressProps) {
  const { data: batch, error } = useBatch(batchId);
  if (error) {
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>
          The bulk upload’s progress could not be loaded. Refresh the page to try again.
        </Alert.Title>
      </Alert.Root>
    );
  }
  if (!batch) return <Skeleton height="40" />;
  const done = batch.state === 'completed';
  return (
    <Card.Root data-testid="batch-progress" data-state={batch.state}>
      <Card.Body>
        <Stack gap="5">
          <Stack gap="1">
            <Heading as="h2" size="lg">
              {done ? 'Bulk upload finished' : `Processing ${batch.totals.files} files…`}
            </Heading>
            <Text color="fg.muted" data-testid="batch-summary">
              {batchSummary(batch)}
              {done && batch.totals.failed > 0 ? ` · ${batch.totals.failed} failed` : ''}
            </Text>
          </Stack>
          <Progress.Root
            value={batch.totals.progress}
            colorPalette={done && batch.totals.completed === 0 ? 'red' : done ? 'green' : 'blue'}
            aria-label="Progress of the whole bulk upload"
          >
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
          <RejectedFiles rejected={batch.rejected} />
          <Stack as="ul" gap="3" m="0" p="0" aria-label="Files in this bulk upload">
            {batch.files.map((f) => (
              <FileRow key={f.jobId} file={f} />
            ))}
          </Stack>
          <HStack justify="space-between" gap="3" flexWrap="wrap">
            <Button variant="outline" onClick={onReset}>
              Map another file
            </Button>
            {batch.resultZipUrl ? (
              <Button asChild colorPalette="blue">
                <a href={batch.resultZipUrl} download>
                  Download all (ZIP)
                </a>
              </Button>
            ) : (
              <Text fontSize="sm" color="fg.muted">
                {done
                  ? 'No file completed, so there is nothing to download.'
                  : 'You can leave this page: the dashboard lists your bulk uploads.'}
              </Text>
            )}
          </HStack>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
