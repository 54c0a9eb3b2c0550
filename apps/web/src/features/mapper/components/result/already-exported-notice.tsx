import { Alert, Stack, Text } from '@chakra-ui/react';
import type { RunTotals } from '@csv-mapper/contracts';
import { plural } from '../../../../lib/plural';
import { alreadyExported } from '../../utils/already-exported';

/** Rows an earlier run of this saved mapping exported, and what this run did with them (issue 30). */
export function AlreadyExportedNotice({ totals }: { totals: RunTotals | undefined }) {
  const s = alreadyExported(totals);
  if (!s) return null;
  return (
    <Alert.Root status="warning" data-testid="already-exported">
      <Alert.Indicator />
      <Stack gap="1" flex="1" minW="0">
        <Alert.Title>
          {plural(s.rows, 'row')} of this file {s.rows === 1 ? 'was' : 'were'} exported before
        </Alert.Title>
        <Alert.Description>
          <Stack gap="1">
            {s.lines.map((l) => (
              <Text key={l}>{l}.</Text>
            ))}
            <Text color="fg.muted" fontSize="sm">
              {s.skipped > 0
                ? 'They were left out of this file and do not count against your monthly rows.'
                : 'They are in this file: check them in the review before you import it.'}
            </Text>
          </Stack>
        </Alert.Description>
      </Stack>
    </Alert.Root>
  );
}
