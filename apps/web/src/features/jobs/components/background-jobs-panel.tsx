import { Badge, Box, Card, HStack, Heading, Link, Progress, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useJobs } from '../api/get-jobs';
import type { JobView } from '@csv-mapper/contracts';

const STATE_BADGE: Record<JobView['state'], { label: string; palette: string }> = {
  queued: { label: 'Queued', palette: 'gray' },
  active: { label: 'Processing', palette: 'blue' },
  completed: { label: 'Completed', palette: 'green' },
  failed: { label: 'Failed', palette: 'red' },
  cancelled: { label: 'Cancelled', palette: 'orange' },
};

function JobRow({ job }: { job: JobView }) {
  const badge = STATE_BADGE[job.state];
  return (
    <Box as="li" listStyleType="none" borderWidth="1px" rounded="lg" p="3">
      <Stack gap="2">
        <HStack justify="space-between" gap="3" wrap="wrap">
          <Text fontWeight="medium" truncate maxW={{ base: '100%', sm: '60%' }} title={job.filename}>
            {job.filename}
          </Text>
          <Badge colorPalette={badge.palette}>{badge.label}</Badge>
        </HStack>
        {job.state === 'active' || job.state === 'queued' ? (
          <Progress.Root value={job.progress} size="sm" aria-label={`Progress of ${job.filename}`}>
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        ) : null}
        <HStack justify="space-between" fontSize="sm" color="fg.muted" wrap="wrap" gap="2">
          <Text>
            {job.rowsProcessed.toLocaleString('en-GB')} of {job.totalRows.toLocaleString('en-GB')} rows
            {job.warnings > 0 ? ` · ${job.warnings.toLocaleString('en-GB')} warnings` : ''}
          </Text>
          {job.resultUrl ? (
            <Link href={job.resultUrl} color="blue.600" fontWeight="medium" download>
              Download CSV
            </Link>
          ) : null}
        </HStack>
        {job.error ? (
          <Text fontSize="sm" color="red.600">
            {job.error}
          </Text>
        ) : null}
      </Stack>
    </Box>
  );
}

/** Recent background jobs with live progress; files above the sync limit (and async requests) run here. */
export function BackgroundJobsPanel() {
  const { data, error, isLoading } = useJobs();
  return (
    <Card.Root>
      <Card.Body>
        <Stack gap="4">
          <Heading as="h2" size="md">
            Background jobs
          </Heading>
          {isLoading ? (
            <Skeleton height="12" />
          ) : error ? (
            <Text color="fg.muted" fontSize="sm">
              Background jobs could not be loaded. Refresh the page to try again.
            </Text>
          ) : !data || data.length === 0 ? (
            <Text color="fg.muted" fontSize="sm">
              No background jobs yet. Large files are processed here, so you can leave the page and come back
              for the result; results are kept for 1 hour.
            </Text>
          ) : (
            <Stack as="ul" gap="3" m="0" p="0">
              {data.map((job) => (
                <JobRow key={job.id} job={job} />
              ))}
            </Stack>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
