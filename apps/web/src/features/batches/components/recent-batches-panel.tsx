import { Badge, Box, Card, HStack, Heading, Link, Progress, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { BatchView } from '@csv-mapper/contracts';
import { useBatches } from '../api/batches';
import { batchSummary } from './batch-progress';

function BatchRow({ batch }: { batch: BatchView }) {
  const done = batch.state === 'completed';
  const when = new Date(batch.createdAt).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Box as="li" listStyleType="none" borderWidth="1px" rounded="lg" p="3" data-testid="recent-batch">
      <Stack gap="2">
        <HStack justify="space-between" gap="3" wrap="wrap">
          <Text fontWeight="medium" truncate maxW={{ base: '100%', sm: '60%' }}>
            {batch.mappingName ?? batch.templateFilename ?? 'Bulk upload'} · {when}
          </Text>
          <Badge colorPalette={done ? (batch.totals.completed > 0 ? 'green' : 'red') : 'blue'}>
            {done ? 'Finished' : 'Processing'}
          </Badge>
        </HStack>
        {!done ? (
          <Progress.Root value={batch.totals.progress} size="sm" aria-label="Progress of the bulk upload">
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        ) : null}
        <HStack justify="space-between" fontSize="sm" color="fg.muted" wrap="wrap" gap="2">
          <Text>
            {batchSummary(batch)}
            {batch.rejected.length > 0 ? ` · ${batch.rejected.length} not processed` : ''}
          </Text>
          {batch.resultZipUrl ? (
            <Link href={batch.resultZipUrl} color="blue.fg" fontWeight="medium" download>
              Download all (ZIP)
            </Link>
          ) : null}
        </HStack>
      </Stack>
    </Box>
  );
}

/** The dashboard's list of recent bulk uploads (Business and Enterprise), with live progress. */
export function RecentBatchesPanel() {
  const { data, error, isLoading } = useBatches();
  return (
    <Card.Root>
      <Card.Body>
        <Stack gap="4">
          <Heading as="h2" size="md">
            Bulk uploads
          </Heading>
          {isLoading ? (
            <Skeleton height="12" />
          ) : error ? (
            <Text color="fg.muted" fontSize="sm">
              Bulk uploads could not be loaded. Refresh the page to try again.
            </Text>
          ) : !data || data.length === 0 ? (
            <Text color="fg.muted" fontSize="sm">
              No bulk uploads yet. In the mapper, add several data files with the same columns and one mapping
              runs on all of them; you download one ZIP.
            </Text>
          ) : (
            <Stack as="ul" gap="3" m="0" p="0">
              {data.map((b) => (
                <BatchRow key={b.id} batch={b} />
              ))}
            </Stack>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
