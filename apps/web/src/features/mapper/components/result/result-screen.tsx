import { Box, Button, Card, DataList, HStack, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useMemo, useState, type ReactNode } from 'react';
import { CircleCheckIcon, DownloadIcon } from '../../../../components/icons';
import type { MapperResult } from '../../hooks/use-mapper-state';
import { downloadText } from '../../../../lib/download';
import { downloadResult, warningsCsv } from '../../utils/download';
import {
  choiceFromApplied,
  describeOptions,
  firstLines,
  type OutputChoice,
} from '../../utils/output-options';
import { useResultHead } from '../../hooks/use-result-head';
import { rowSummary } from '../../utils/result-summary';
import { splitWarnings } from '../../utils/warnings';
import { AlreadyExportedNotice } from './already-exported-notice';
import { ControlTotalsCard } from './control-totals-card';
import { OutputOptionsForm } from './output-options-form';

// Step 4 (issue 20): where a person checks the file before using it — the download first, then control
// totals, warnings, the first rows as written, and the output format (changeable: generating again
// applies it). The review grid of the rows goes in `review`, between the summary and the details.

const FIRST_ROWS = 10;

export interface ResultScreenProps {
  result: MapperResult;
  choice: OutputChoice;
  onChoiceChange: (c: OutputChoice) => void;
  /** Runs the mapping again with this choice. */
  onRegenerate: (c: OutputChoice) => void;
  onReset: () => void;
  templateIsBuiltIn: boolean;
  /** Slot for the review grid (rendered under the summary when given). */
  review?: ReactNode;
}

/** An orange box for what the user should look at before using the file. */
function Notice({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <Box
      borderWidth="1px"
      borderColor="orange.muted"
      bg="orange.subtle"
      borderRadius="md"
      p="4"
      data-testid={testId}
    >
      {children}
    </Box>
  );
}

/** A TAB would be invisible in the raw preview: shown as an arrow. */
const visible = (line: string) => line.replace(/\t/g, '→');

export function ResultScreen({
  result,
  choice,
  onChoiceChange,
  onRegenerate,
  onReset,
  templateIsBuiltIn,
  review,
}: ResultScreenProps) {
  const rows = rowSummary(result);
  const { columnNotes, cellWarnings, cellCount } = splitWarnings(result.warnings, result.warningCount);
  const applied = result.output;
  const described = describeOptions(applied ?? { matchedTemplate: choice.matchTemplate });
  const unencodable = result.totals?.unmappableCharacters ?? 0;
  const head = useResultHead(result.csvData ? undefined : result.downloadUrl, result.output?.encoding);
  const text = result.csvData || head || '';
  // a head cut mid-row loses its last, partial line
  const lines = useMemo(
    () => firstLines(text, FIRST_ROWS + 1).slice(0, head && !result.csvData ? FIRST_ROWS : FIRST_ROWS + 1),
    [text, head, result.csvData],
  );
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<OutputChoice>(() => choiceFromApplied(applied, choice));
  const errorReport = (result as { errorReportUrl?: string | null }).errorReportUrl ?? null;

  return (
    <Stack gap="5" data-testid="result-screen">
      <Card.Root>
        <Card.Body gap="4" py="6">
          <HStack gap="4" align="flex-start" flexWrap={{ base: 'wrap', md: 'nowrap' }}>
            <CircleCheckIcon boxSize="10" color="green.fg" flexShrink={0} />
            <Stack gap="1" flex="1" minW="0">
              <Text as="h2" fontSize="xl" fontWeight="semibold">
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
            <HStack gap="3" flexWrap="wrap" justify={{ base: 'flex-start', md: 'flex-end' }}>
              {result.downloadUrl ? (
                <Button asChild colorPalette="blue">
                  <a href={result.downloadUrl} download={result.filename}>
                    <DownloadIcon /> Download CSV
                  </a>
                </Button>
              ) : (
                <Button colorPalette="blue" onClick={() => downloadResult(result)}>
                  <DownloadIcon /> Download CSV
                </Button>
              )}
              <Button variant="outline" onClick={onReset}>
                Process Another File
              </Button>
            </HStack>
          </HStack>
        </Card.Body>
      </Card.Root>

      <AlreadyExportedNotice totals={result.totals} />

      {columnNotes.length > 0 ? (
        <Notice testId="column-notes">
          <Text as="h2" fontWeight="semibold">
            How columns were read
          </Text>
          <Stack as="ul" gap="1" mt="2" fontSize="sm" ps="4">
            {columnNotes.map((w, i) => (
              <li key={i}>
                {w.column}: {w.reason}
              </li>
            ))}
          </Stack>
          <Text fontSize="sm" mt="2" color="fg.muted">
            If a guess is wrong, go back to step 3, choose how that column is read on its card, and generate
            again.
          </Text>
        </Notice>
      ) : null}

      {review ? <Box data-testid="review-slot">{review}</Box> : null}

      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="5" alignItems="start">
        <ControlTotalsCard rows={rows} totals={result.totals?.columns ?? result.controlTotals} />

        <Card.Root data-testid="output-options">
          <Card.Header pb="2">
            <Text as="h2" fontWeight="semibold" fontSize="lg">
              Output file
            </Text>
          </Card.Header>
          <Card.Body gap="4" pt="2">
            <DataList.Root orientation="horizontal" size="sm" data-testid="applied-options">
              {described.map((d) => (
                <DataList.Item key={d.label}>
                  <DataList.ItemLabel>{d.label}</DataList.ItemLabel>
                  <DataList.ItemValue>{d.value}</DataList.ItemValue>
                </DataList.Item>
              ))}
            </DataList.Root>
            {unencodable > 0 ? (
              <Box
                borderWidth="1px"
                borderColor="orange.muted"
                bg="orange.subtle"
                borderRadius="md"
                p="3"
                fontSize="sm"
                data-testid="unencodable"
              >
                {unencodable === 1
                  ? '1 character is not in this encoding and was written as "?".'
                  : `${unencodable.toLocaleString('en-GB')} characters are not in this encoding and were written as "?".`}{' '}
                Choose UTF-8 to keep them.
              </Box>
            ) : null}
            {editing ? (
              <Stack gap="3">
                <OutputOptionsForm choice={draft} onChange={setDraft} templateIsBuiltIn={templateIsBuiltIn} />
                <Text fontSize="xs" color="fg.muted">
                  Generating again counts the rows against your monthly allowance again.
                </Text>
                <HStack gap="2" flexWrap="wrap">
                  <Button
                    size="sm"
                    colorPalette="blue"
                    onClick={() => {
                      onChoiceChange(draft);
                      setEditing(false);
                      onRegenerate(draft);
                    }}
                  >
                    Generate again
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
                    Cancel
                  </Button>
                </HStack>
              </Stack>
            ) : (
              <Button
                size="sm"
                variant="outline"
                alignSelf="flex-start"
                onClick={() => {
                  setDraft(choiceFromApplied(applied, choice));
                  setEditing(true);
                }}
              >
                Change output format
              </Button>
            )}
          </Card.Body>
        </Card.Root>
      </SimpleGrid>

      {cellCount > 0 ? (
        <Notice testId="result-warnings">
          <Text as="h2" fontWeight="semibold">
            {cellCount === 1
              ? '1 value to check (written as it was)'
              : `${cellCount.toLocaleString('en-GB')} values to check (written as they were)`}
          </Text>
          <Stack as="ul" gap="1" mt="2" fontSize="sm" ps="4">
            {cellWarnings.slice(0, 5).map((w, i) => (
              <li key={i}>
                Row {w.row}
                {w.column ? `, ${w.column}` : ''}: "{w.value}" — {w.reason}
              </li>
            ))}
          </Stack>
          {errorReport ? (
            <Link href={errorReport} mt="2" fontSize="sm" color="orange.fg" download>
              Download the row-level error report
            </Link>
          ) : (
            <Link
              as="button"
              mt="2"
              fontSize="sm"
              color="orange.fg"
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
          )}
        </Notice>
      ) : null}

      <Card.Root>
        <Card.Header pb="2">
          <Text as="h2" fontWeight="semibold" fontSize="lg">
            First rows of the file
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {lines.length > 0
              ? 'Exactly as written, with the delimiter and quotes (a tab shows as →).'
              : head === ''
                ? 'The first rows could not be read here: download the file to see them.'
                : 'Reading the first rows of the file…'}
          </Text>
        </Card.Header>
        {lines.length > 0 ? (
          <Card.Body pt="2">
            <Box
              as="pre"
              data-testid="output-first-rows"
              fontFamily="mono"
              fontSize="sm"
              bg="bg.muted"
              borderRadius="md"
              p="3"
              overflowX="auto"
              whiteSpace="pre"
              tabIndex={0}
              aria-label="First rows of the output file"
            >
              {lines.map(visible).join('\n')}
            </Box>
          </Card.Body>
        ) : null}
      </Card.Root>
    </Stack>
  );
}
