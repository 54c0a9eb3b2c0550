import { Button, Card, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { TemplateView } from '@csv-mapper/contracts';
import { useTemplates } from '../api/get-templates';

/** Step 1's alternative to uploading: start from one of the built-in templates. */
export function TemplatePicker({ onPick }: { onPick: (t: TemplateView) => void }) {
  const { data } = useTemplates();
  if (!data || data.length === 0) return null;
  return (
    <Stack gap="3" mt="8">
      <Text as="h2" fontWeight="semibold" fontSize="lg">
        Start from a built-in template
      </Text>
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="3">
        {data.map((t) => (
          <Card.Root key={t.id} size="sm">
            <Card.Body gap="2">
              <Text fontWeight="semibold">{t.name}</Text>
              <Text fontSize="sm" color="fg.muted" flex="1">
                {t.description}
              </Text>
              <Text fontSize="xs" color="fg.muted">
                {t.headers.length} columns
              </Text>
              <Button
                size="sm"
                variant="outline"
                h="auto"
                minH="8"
                py="1.5"
                whiteSpace="normal"
                textAlign="center"
                onClick={() => onPick(t)}
              >
                Use {t.name}
              </Button>
            </Card.Body>
          </Card.Root>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
