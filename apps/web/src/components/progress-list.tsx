import { Badge, Box, Card, HStack, Heading, Link, Progress, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { JobState } from '@csv-mapper/contracts';
import type { ReactNode } from 'react';

// The rows of running work (background jobs, bulk uploads and their files) and the dashboard card that
// lists them: the same layout wherever a job's progress is shown.

export const JOB_STATE_BADGE: Record<JobState, { label: string; palette: string }> = {
  queued: { label: 'Queued', palette: 'gray' },
  active: { label: 'Processing', palette: 'blue' },
  completed: { label: 'Completed', palette: 'green' },
  failed: { label: 'Failed', palette: 'red' },
  cancelled: { label: 'Cancelled', palette: 'orange' },
};

export interface ProgressRowProps {
  testId?: string;
  title: ReactNode;
  /** The title's tooltip (the whole name when it is cut short). */
  titleText?: string;
  badge: { label: string; palette: string };
  /** A progress bar while the work runs. */
  progress?: { value: number; label: string };
  summary: ReactNode;
  download?: { href: string; label: string; color: string };
  error?: { text: string; color: string };
}

/** One list item: title and state badge, a progress bar while running, a summary line and its download. */
export function ProgressRow({
  testId,
  title,
  titleText,
  badge,
  progress,
  summary,
  download,
  error,
}: ProgressRowProps) {
  return (
    <Box as="li" listStyleType="none" borderWidth="1px" rounded="lg" p="3" data-testid={testId}>
      <Stack gap="2">
        <HStack justify="space-between" gap="3" wrap="wrap">
          <Text fontWeight="medium" truncate maxW={{ base: '100%', sm: '60%' }} title={titleText}>
            {title}
          </Text>
          <Badge colorPalette={badge.palette}>{badge.label}</Badge>
        </HStack>
        {progress ? (
          <Progress.Root value={progress.value} size="sm" aria-label={progress.label}>
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        ) : null}
        <HStack justify="space-between" fontSize="sm" color="fg.muted" wrap="wrap" gap="2">
          <Text>{summary}</Text>
          {download ? (
            <Link href={download.href} color={download.color} fontWeight="medium" download>
              {download.label}
            </Link>
          ) : null}
        </HStack>
        {error ? (
          <Text fontSize="sm" color={error.color}>
            {error.text}
          </Text>
        ) : null}
      </Stack>
    </Box>
  );
}

export interface ProgressListCardProps<T> {
  title: string;
  list: { data?: T[] | null; error?: unknown; isLoading: boolean };
  /** Said when the list could not be loaded. */
  failed: string;
  /** Said when there is nothing yet. */
  empty: string;
  row: (item: T) => ReactNode;
}

/** A dashboard card listing recent work: a skeleton while loading, why when it failed, a hint when empty. */
export function ProgressListCard<T>({ title, list, failed, empty, row }: ProgressListCardProps<T>) {
  const { data, error, isLoading } = list;
  return (
    <Card.Root>
      <Card.Body>
        <Stack gap="4">
          <Heading as="h2" size="md">
            {title}
          </Heading>
          {isLoading ? (
            <Skeleton height="12" />
          ) : error ? (
            <Text color="fg.muted" fontSize="sm">
              {failed}
            </Text>
          ) : !data || data.length === 0 ? (
            <Text color="fg.muted" fontSize="sm">
              {empty}
            </Text>
          ) : (
            <Stack as="ul" gap="3" m="0" p="0">
              {data.map(row)}
            </Stack>
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
