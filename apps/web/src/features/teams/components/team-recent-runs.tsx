import { Box, Button, HStack, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { TeamUsageRunView } from '@csv-mapper/contracts';
import { useState } from 'react';
import { useTeamUsage } from '../api/team';

// The team's usage history: who ran what. Each run is two stacked lines (file, then rows · size · who ·
// when) so it reads at phone width without a table.

const FIRST_SHOWN = 10;

const whenFormat = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const numberFormat = new Intl.NumberFormat('en-US');

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function runnerName(run: TeamUsageRunView, currentUserId: string | undefined): string {
  if (!run.runBy) return 'a deleted account';
  return run.runBy.userId === currentUserId ? 'you' : run.runBy.name;
}

function RunRow({ run, currentUserId }: { run: TeamUsageRunView; currentUserId: string | undefined }) {
  const rows = `${numberFormat.format(run.rowsProcessed)} row${run.rowsProcessed === 1 ? '' : 's'}`;
  return (
    <Stack as="li" gap="0.5" py="2.5" borderTopWidth="1px" minW="0" data-testid="team-run">
      <HStack gap="2" justify="space-between" minW="0">
        <Text fontWeight="medium" fontSize="sm" truncate title={run.filename}>
          {run.filename}
        </Text>
        {run.jobId ? (
          <Text fontSize="xs" color="fg.muted" flexShrink={0}>
            background
          </Text>
        ) : null}
      </HStack>
      <Text fontSize="xs" color="fg.muted">
        {rows} · {formatSize(run.fileSizeBytes)} · by{' '}
        <Text as="span" color="fg" fontWeight="medium">
          {runnerName(run, currentUserId)}
        </Text>{' '}
        · <time dateTime={run.createdAt}>{whenFormat.format(new Date(run.createdAt))}</time>
      </Text>
    </Stack>
  );
}

/** Profile → Team → Recent runs: the team's latest runs, who ran each ("you" for the caller). */
export function TeamRecentRuns({ currentUserId }: { currentUserId: string | undefined }) {
  const { data, error, isLoading } = useTeamUsage();
  const [showAll, setShowAll] = useState(false);
  const runs = data?.runs ?? [];
  const shown = showAll ? runs : runs.slice(0, FIRST_SHOWN);

  return (
    <Box>
      <Text id="team-runs-title" fontWeight="semibold" fontSize="sm" mb="1">
        Recent runs
      </Text>
      {isLoading && !data ? (
        <Stack gap="2" aria-busy="true" aria-label="Loading recent runs">
          <Skeleton h="8" />
          <Skeleton h="8" />
        </Stack>
      ) : error && !data ? (
        <Text color="fg.muted" fontSize="sm">
          Unable to load the recent runs.
        </Text>
      ) : runs.length === 0 ? (
        <Text color="fg.muted" fontSize="sm">
          No runs yet. Files your team maps show up here with who ran them.
        </Text>
      ) : (
        <>
          <Box as="ul" listStyleType="none" aria-labelledby="team-runs-title">
            {shown.map((run, i) => (
              <RunRow key={`${run.createdAt}-${i}`} run={run} currentUserId={currentUserId} />
            ))}
          </Box>
          {runs.length > FIRST_SHOWN ? (
            <Button size="xs" variant="ghost" mt="1" onClick={() => setShowAll((v) => !v)}>
              {showAll ? 'Show fewer' : `Show all ${runs.length}`}
            </Button>
          ) : null}
        </>
      )}
    </Box>
  );
}
