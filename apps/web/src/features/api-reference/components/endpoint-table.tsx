import { Badge, Code, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { useOpenApiDocument } from '../api/get-openapi-document';
import { endpointsOf, plainDescription } from '../utils/endpoints';

const METHOD_COLOURS: Record<string, string> = {
  GET: 'blue',
  POST: 'green',
  PUT: 'orange',
  PATCH: 'purple',
  DELETE: 'red',
};

/**
 * The API reference, read from the document the api serves, so it lists exactly the routes the api has.
 * The prerendered page shows the loading state (marked data-island: the page does not hydrate, and
 * islands/public-islands.ts mounts this component there when the section comes near the viewport).
 */
export function EndpointTable() {
  const { data: doc, error } = useOpenApiDocument();

  if (error) {
    return (
      <Text color="fg.muted" role="status">
        The endpoint list could not be loaded. The document itself is at <Code>/api/docs/openapi.json</Code>.
      </Text>
    );
  }
  if (!doc) {
    return (
      <Stack gap="2" aria-busy="true" aria-label="Loading the endpoint list" data-island="endpoint-table">
        <Text color="fg.muted" fontSize="sm">
          Loading the endpoint list…
        </Text>
        <Skeleton h="4" />
        <Skeleton h="4" />
        <Skeleton h="4" />
      </Stack>
    );
  }

  const endpoints = endpointsOf(doc);
  return (
    <>
      <Text color="fg.muted">{plainDescription(doc)}</Text>
      <Text color="fg.muted" fontSize="sm">
        OpenAPI {doc.openapi}, API version {doc.info.version}: {endpoints.length} operations.
      </Text>
      <Table.ScrollArea borderWidth="1px" rounded="lg" tabIndex={0} role="region" aria-label="Endpoints">
        <Table.Root size="sm" css={{ '& td:nth-of-type(3)': { whiteSpace: 'normal', minWidth: '12rem' } }}>
          <Table.Caption srOnly>Endpoints of the published API</Table.Caption>
          <Table.Header>
            <Table.Row bg="bg.muted">
              <Table.ColumnHeader scope="col">Method</Table.ColumnHeader>
              <Table.ColumnHeader scope="col">Path</Table.ColumnHeader>
              <Table.ColumnHeader scope="col">What it does</Table.ColumnHeader>
              <Table.ColumnHeader scope="col">Statuses</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {endpoints.map((e) => (
              <Table.Row key={`${e.method} ${e.path}`} data-testid="api-endpoint">
                <Table.Cell>
                  <Badge colorPalette={METHOD_COLOURS[e.method] ?? 'gray'} variant="subtle" fontFamily="mono">
                    {e.method}
                  </Badge>
                </Table.Cell>
                <Table.Cell>
                  <Code>{e.path}</Code>
                </Table.Cell>
                <Table.Cell>{e.summary}</Table.Cell>
                <Table.Cell fontSize="xs" color="fg.muted">
                  {e.statuses}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
    </>
  );
}
