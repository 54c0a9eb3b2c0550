import { Box, Card, HStack, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import type { PreviewResponse } from '@csv-mapper/contracts';
import { splitWarnings } from '../utils/warnings';

/**
 * The first output rows for the current mappings; cells a transform could not read are highlighted, and
 * notes on how a whole column was read (an ambiguous date order, a guessed decimal separator) are listed
 * above the rows, so the user can set the column's transform when the guess is wrong.
 */
export function MappingPreview({
  preview,
  loading,
  error = null,
}: {
  preview: PreviewResponse | null;
  loading: boolean;
  /** Why the api refused the preview (shown in place of the rows). */
  error?: string | null;
}) {
  const { columnNotes, cellWarnings, cellCount } = splitWarnings(
    preview?.warnings ?? [],
    preview?.warningCount ?? 0,
  );
  const flagged = new Map<string, string>();
  for (const w of cellWarnings) flagged.set(`${w.row}:${w.column}`, `${w.reason} (value "${w.value}")`);
  return (
    <Card.Root mt="6">
      <Card.Header pb="2">
        <HStack justify="space-between">
          <Text as="h2" fontWeight="semibold" fontSize="lg">
            Preview
          </Text>
          {loading ? <Spinner size="sm" aria-label="Updating preview" /> : null}
        </HStack>
        {error ? (
          <Text fontSize="sm" color="fg.error" role="alert" data-testid="preview-error">
            {error}
          </Text>
        ) : null}
        <Text fontSize="sm" color="fg.muted" hidden={Boolean(error)}>
          {preview
            ? `First ${preview.rows.length} of ${preview.totalRowsInFile.toLocaleString('en-GB')} rows as they will be written.` +
              (cellCount > 0
                ? ` ${cellCount} value${cellCount === 1 ? '' : 's'} could not be read (highlighted).`
                : '')
            : 'Map a column to see the output here.'}
        </Text>
      </Card.Header>
      <Card.Body pt="2">
        {columnNotes.length > 0 ? (
          <Stack
            as="ul"
            gap="1"
            mb="3"
            p="3"
            ps="7"
            fontSize="sm"
            borderWidth="1px"
            borderColor="orange.muted"
            bg="orange.subtle"
            borderRadius="md"
            data-testid="column-notes"
          >
            {columnNotes.map((w, i) => (
              <li key={i}>
                <Text as="span" fontWeight="semibold">
                  {w.column}:
                </Text>{' '}
                {w.reason}
              </li>
            ))}
            <Text as="li" listStyleType="none" color="fg.muted">
              If a guess is wrong, choose how the column is read on its card above.
            </Text>
          </Stack>
        ) : null}
        {preview && preview.rows.length > 0 ? (
          <Box overflowX="auto" data-testid="mapping-preview">
            <Table.Root size="sm" variant="outline" showColumnBorder>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>#</Table.ColumnHeader>
                  {preview.headers.map((h) => (
                    <Table.ColumnHeader key={h} whiteSpace="nowrap">
                      {h}
                    </Table.ColumnHeader>
                  ))}
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {preview.rows.map((row, r) => (
                  <Table.Row key={r}>
                    <Table.Cell color="fg.muted">{r + 1}</Table.Cell>
                    {row.map((cell, c) => {
                      const warning = flagged.get(`${r + 1}:${preview.headers[c]}`);
                      return (
                        <Table.Cell
                          key={c}
                          whiteSpace="nowrap"
                          bg={warning ? 'red.subtle' : undefined}
                          color={warning ? 'red.fg' : undefined}
                          title={warning}
                          data-warning={warning ? 'true' : undefined}
                        >
                          {cell}
                        </Table.Cell>
                      );
                    })}
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Box>
        ) : null}
      </Card.Body>
    </Card.Root>
  );
}
