import { Card, Progress, Text } from '@chakra-ui/react';

/** Spec §2: '{mapped} of {total} columns mapped' with a bar at mapped / total. */
export function MappingProgressCard({ mapped, total }: { mapped: number; total: number }) {
  const pct = total === 0 ? 0 : (mapped / total) * 100;
  return (
    <Card.Root>
      <Card.Body gap="2" py="4">
        <Text fontWeight="semibold">Mapping Progress</Text>
        <Text fontSize="sm" color="fg.muted">
          {mapped} of {total} columns mapped
        </Text>
        <Progress.Root
          value={pct}
          size="sm"
          colorPalette={mapped === total ? 'green' : 'blue'}
          aria-label="Mapping progress"
        >
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      </Card.Body>
    </Card.Root>
  );
}
