import { Box, HStack, Link, Stack, Text } from '@chakra-ui/react';
import type { MappingRunView } from '@csv-mapper/contracts';
import { plural } from '../../../lib/plural';
import { useMappingRuns } from '../api/mapping-runs';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

const SOURCE: Record<MappingRunView['source'], string> = {
  browser: 'in the mapper',
  api: 'by API',
  bulk: 'in a bulk upload',
  cli: 'from the command line',
};

/** What one run did, in a line: "ana · 12 rows written, 3 exported before (skipped)". */
function runLine(r: MappingRunView): string {
  if (r.state === 'failed') return `failed${r.errorCode ? ` (${r.errorCode})` : ''}`;
  if (r.state === 'running') return 'running…';
  const parts = [`${plural(r.rowsWritten, 'row')} written`];
  if (r.rowsAlreadyExported > 0)
    parts.push(
      `${r.rowsAlreadyExported.toLocaleString('en-GB')} exported before (${r.duplicates === 'skip' ? 'skipped' : r.duplicates === 'flag' ? 'flagged' : 'kept'})`,
    );
  return parts.join(', ');
}

/** A saved mapping's last runs on its card (issue 30): who, when, rows written and already exported. */
export function MappingLastRuns({ mappingId, locked }: { mappingId: string; locked: boolean }) {
  const { data, error } = useMappingRuns(locked ? null : mappingId);
  if (locked || error || !data) return null;
  return (
    <Box data-testid="mapping-runs" borderTopWidth="1px" pt="2" mt="1">
      <Text
        fontSize="xs"
        fontWeight="semibold"
        color="fg.muted"
        textTransform="uppercase"
        letterSpacing="wide"
      >
        Last runs
      </Text>
      {data.runs.length === 0 ? (
        <Text fontSize="sm" color="fg.muted">
          Not run yet.
        </Text>
      ) : (
        <Stack as="ul" gap="1" mt="1" fontSize="sm" listStyleType="none">
          {data.runs.map((r) => (
            <Box as="li" key={r.id} data-testid="mapping-run">
              <HStack gap="1" flexWrap="wrap">
                <Text color="fg.muted">{when(r.createdAt)}</Text>
                <Text>
                  {r.by ? `· ${r.by.name} ` : ''}
                  {SOURCE[r.source]}
                </Text>
              </HStack>
              <Text>
                {r.dataFilename ? `${r.dataFilename}: ` : ''}
                {runLine(r)}
                {r.resultUrl ? (
                  <>
                    {' · '}
                    <Link href={r.resultUrl} colorPalette="blue">
                      result
                    </Link>
                  </>
                ) : null}
              </Text>
            </Box>
          ))}
          {data.total > data.runs.length ? (
            <Text color="fg.muted">+{data.total - data.runs.length} earlier</Text>
          ) : null}
        </Stack>
      )}
    </Box>
  );
}
