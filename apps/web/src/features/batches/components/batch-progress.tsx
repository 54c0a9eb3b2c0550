import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  HStack,
  Heading,
  Link,
  Progress,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import type { BatchFileView, BatchRejection, BatchView } from '@csv-mapper/contracts';
import { useBatch } from '../api/batches';

export const FILE_STATE: Record<BatchFileView['state'], { label: string; palette: string }> = {
  queued: { label: 'Queued', palette: 'gray' },
  active: { label: 'Processing', palette: 'blue' },
  completed: { label: 'Completed', palette: 'green' },
  failed: { label: 'Failed', palette: 'red' },
  cancelled: { label: 'Cancelled', palette: 'orange' },
};

const n = (v: number) => v.toLocaleString('en-GB');

/** "2 of 3 files finished · 1,200 of 1,500 rows". */
export function batchSummary(b: Pick<BatchView, 'totals'>): string {
  const t = b.totals;
  const finished = t.completed + t.failed + t.cancelled;
  return `${finished} of ${t.files} file${t.files === 1 ? '' : 's'} finished · ${n(t.rowsProcessed)} of ${n(t.totalRows)} rows`;
}

function FileRow({ file }: { file: BatchFileView }) {
  const badge = FILE_STATE[file.state];
  const running = file.state === 'queued' || file.state === 'active';
  return (
    <Box as="li" listStyleType="none" borderWidth="1px" rounded="lg" p="3" data-testid="batch-file">
      <Stack gap="2">
        <HStack justify="space-between" gap="3" wrap="wrap">
          <Text fontWeight="medium" truncate maxW={{ base: '100%', sm: '60%' }} title={file.filename}>
            {file.filename}
          </Text>
          <Badge colorPalette={badge.palette}>{badge.label}</Badge>
        </HStack>
        {running ? (
          <Progress.Root value={file.progress} size="sm" aria-label={`Progress of ${file.filename}`}>
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        ) : null}
        <HStack justify="space-between" fontSize="sm" color="fg.muted" wrap="wrap" gap="2">
          <Text>
            {n(file.rowsProcessed)} of {n(file.totalRows)} rows
            {file.warnings > 0 ? ` · ${n(file.warnings)} warnings` : ''}
          </Text>
          {file.resultUrl ? (
            <Link href={file.resultUrl} color="blue.fg" fontWeight="medium" download>
              Download CSV
            </Link>
          ) : null}
        </HStack>
        {file.error ? (
          <Text fontSize="sm" color="red.fg">
            {file.error}
          </Text>
        ) : null}
      </Stack>
    </Box>
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
