import { Badge, Box, Card, DataList, Stack, Table, Text } from '@chakra-ui/react';
import type { ControlTotal } from '@csv-mapper/contracts';
import { checkTotal, type RowSummary } from '../../utils/result-summary';

const n = (v: number) => v.toLocaleString('en-GB');

/** Rows read / written / skipped, and each amount column's sum read next to its sum written. */
export function ControlTotalsCard({ rows, totals }: { rows: RowSummary; totals: ControlTotal[] }) {
  return (
    <Card.Root data-testid="control-totals">
      <Card.Header pb="2">
        <Text as="h2" fontWeight="semibold" fontSize="lg">
          Control totals
        </Text>
        <Text fontSize="sm" color="fg.muted">
          Tick these against your source before you import the file.
        </Text>
      </Card.Header>
      <Card.Body gap="4" pt="2">
        <DataList.Root orientation="horizontal" size="sm" data-testid="row-totals">
          <DataList.Item>
            <DataList.ItemLabel>Rows in the file</DataList.ItemLabel>
            <DataList.ItemValue>{n(rows.inFile)}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Rows read</DataList.ItemLabel>
            <DataList.ItemValue>{n(rows.read)}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Rows written</DataList.ItemLabel>
            <DataList.ItemValue>{n(rows.written)}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Rows skipped</DataList.ItemLabel>
            <DataList.ItemValue>
              {rows.skipped.length === 0 ? (
                '0'
              ) : (
                <Stack gap="0.5">
                  {rows.skipped.map((s) => (
                    <Text key={s.message}>
                      {n(s.rows)} — {s.message}
                    </Text>
                  ))}
                </Stack>
              )}
            </DataList.ItemValue>
          </DataList.Item>
        </DataList.Root>
        {totals.length > 0 ? (
          <Box overflowX="auto">
            <Table.Root size="sm" variant="outline" data-testid="column-totals">
              <Table.Caption captionSide="top" textAlign="start" color="fg.muted" mb="1">
                Sums of the amount and number columns
              </Table.Caption>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Column</Table.ColumnHeader>
                  <Table.ColumnHeader>From</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Sum read</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Sum written</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Values</Table.ColumnHeader>
                  <Table.ColumnHeader>Check</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {totals.map((t) => {
                  const check = checkTotal(t);
                  return (
                    <Table.Row key={t.column} data-column={t.column}>
                      <Table.Cell fontWeight="medium">{t.column}</Table.Cell>
                      <Table.Cell>{t.sourceColumns.join(' / ')}</Table.Cell>
                      <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                        {t.sourceTotal}
                      </Table.Cell>
                      <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                        {t.outputTotal}
                      </Table.Cell>
                      <Table.Cell textAlign="end">
                        {n(t.values)}
                        {t.unreadable > 0 ? ` (+${n(t.unreadable)} unreadable)` : ''}
                      </Table.Cell>
                      <Table.Cell>
                        <Badge colorPalette={check === 'match' ? 'green' : 'orange'} variant="subtle">
                          {check === 'match' ? 'Sums agree' : 'Sums differ'}
                        </Badge>
                      </Table.Cell>
                    </Table.Row>
                  );
                })}
              </Table.Body>
            </Table.Root>
          </Box>
        ) : (
          <Text fontSize="sm" color="fg.muted">
            No amount or number columns to total: give a column the Amount or Number transform to see its sums
            here.
          </Text>
        )}
      </Card.Body>
    </Card.Root>
  );
}
