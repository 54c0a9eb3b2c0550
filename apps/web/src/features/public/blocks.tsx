// Small building blocks the public pages share: feature cards, numbered steps, security points.
import { Box, Card, Grid, HStack, Heading, List, SimpleGrid, Table, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { CheckIcon, ShieldIcon } from '../../components/icons';

export interface CardItem {
  title: string;
  text: ReactNode;
  icon?: ReactNode;
}

export function CardGrid({ items, columns = 3 }: { items: CardItem[]; columns?: number }) {
  return (
    <SimpleGrid columns={{ base: 1, sm: 2, lg: columns }} gap="5">
      {items.map((f) => (
        <Card.Root key={f.title} variant="outline">
          <Card.Body gap="3">
            {f.icon ? (
              <Box bg="blue.50" color="blue.700" rounded="lg" p="2" alignSelf="flex-start">
                {f.icon}
              </Box>
            ) : null}
            <Heading as="h3" size="md">
              {f.title}
            </Heading>
            <Box color="fg.muted" fontSize="sm">
              {f.text}
            </Box>
          </Card.Body>
        </Card.Root>
      ))}
    </SimpleGrid>
  );
}

/** An ordered list of steps shown as numbered cards. */
export function Steps({ steps }: { steps: Array<{ title: string; text: string }> }) {
  return (
    <Grid
      as="ol"
      templateColumns={{ base: '1fr', sm: '1fr 1fr', lg: `repeat(${steps.length}, 1fr)` }}
      gap="4"
      listStyleType="none"
      m="0"
      p="0"
    >
      {steps.map((s, i) => (
        <Card.Root as="li" key={s.title}>
          <Card.Body gap="2">
            <HStack gap="3">
              <Box
                aria-hidden="true"
                bg="blue.700"
                color="white"
                rounded="full"
                w="8"
                h="8"
                display="grid"
                placeItems="center"
                fontWeight="bold"
                flexShrink={0}
              >
                {i + 1}
              </Box>
              <Heading as="h3" size="md">
                <Box as="span" srOnly>
                  Step {i + 1}:{' '}
                </Box>
                {s.title}
              </Heading>
            </HStack>
            <Text color="fg.muted" fontSize="sm">
              {s.text}
            </Text>
          </Card.Body>
        </Card.Root>
      ))}
    </Grid>
  );
}

export function CheckList({ items }: { items: ReactNode[] }) {
  return (
    <List.Root variant="plain" gap="2">
      {items.map((item, i) => (
        <List.Item key={i} alignItems="flex-start">
          <List.Indicator asChild mt="1">
            <CheckIcon boxSize="4" color="green.600" />
          </List.Indicator>
          <Text as="span">{item}</Text>
        </List.Item>
      ))}
    </List.Root>
  );
}

export const SECURITY_POINTS: CardItem[] = [
  {
    title: 'Files are not kept',
    text: 'Uploads are parsed in memory and held in the server’s memory cache (Redis) for at most one hour so you can finish mapping, then deleted. They are never written to disk. Only the mappings you choose to save are stored.',
  },
  {
    title: 'Safe output',
    text: 'Cells that a spreadsheet would run as a formula (starting with =, @, + or -) get a leading apostrophe, while real numbers such as -12.50 and phone numbers stay untouched.',
  },
  {
    title: 'Accounts done properly',
    text: 'Passwords are hashed with Argon2, sessions expire after 30 minutes idle, and API keys are stored only as hashes and shown once.',
  },
];

export function SecurityGrid() {
  return (
    <CardGrid items={SECURITY_POINTS.map((p) => ({ ...p, icon: <ShieldIcon boxSize="5" /> }))} columns={3} />
  );
}

/** A comparison or before/after table; the first cell of each row is its header. */
export function CompareTable({
  caption,
  head,
  rows,
}: {
  caption: string;
  head: string[];
  rows: ReactNode[][];
}) {
  return (
    <Table.ScrollArea borderWidth="1px" rounded="lg" bg="bg" tabIndex={0} role="region" aria-label={caption}>
      <Table.Root size="sm" css={{ '& th, & td': { whiteSpace: 'normal', minWidth: '7rem' } }}>
        <Table.Caption srOnly>{caption}</Table.Caption>
        <Table.Header>
          <Table.Row bg="bg.muted">
            {head.map((h) => (
              <Table.ColumnHeader key={h} scope="col" py="3">
                {h}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((r, i) => (
            <Table.Row key={i}>
              {r.map((c, j) =>
                j === 0 ? (
                  <Table.Cell as="th" key={j} scope="row" fontWeight="medium" verticalAlign="top" py="3">
                    {c}
                  </Table.Cell>
                ) : (
                  <Table.Cell key={j} verticalAlign="top" py="3">
                    {c}
                  </Table.Cell>
                ),
              )}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
