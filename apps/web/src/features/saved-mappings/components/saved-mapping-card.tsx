import { Badge, Button, Card, HStack, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { DownloadIcon, LockIcon, TrashIcon } from '../../../components/icons';
import type { MappingPair, SavedMappingView } from '@csv-mapper/contracts';
import type { HistorySettings } from '../api/saved-mappings';
import { HistorySettingsPanel } from './history-settings';
import { MappingLastRuns } from './mapping-last-runs';

const SHOWN_PAIRS = 3;

export interface SavedMappingCardProps {
  mapping: SavedMappingView;
  deleting: boolean;
  onDelete: () => void;
  onExport: () => void;
  /** PUT /api/mappings/:id with other run-history settings. */
  onSaveHistory: (settings: HistorySettings) => Promise<unknown>;
}

/** Spec §2: name, description or 'No description', updatedAt, the first 3 pairs then '+N more'. */
export function SavedMappingCard({
  mapping,
  deleting,
  onDelete,
  onExport,
  onSaveHistory,
}: SavedMappingCardProps) {
  const extra = mapping.mappings.length - SHOWN_PAIRS;
  return (
    <Card.Root data-testid="saved-mapping-card" opacity={mapping.locked ? 0.75 : 1}>
      <Card.Header pb="2">
        <HStack justify="space-between" align="flex-start" gap="2">
          <Text fontWeight="semibold" fontSize="lg" wordBreak="break-word">
            {mapping.name}
          </Text>
          {mapping.locked ? (
            <Badge colorPalette="orange" variant="solid" flexShrink={0}>
              <LockIcon boxSize="3" /> Upgrade Required
            </Badge>
          ) : null}
        </HStack>
        <Text fontSize="sm" color="fg.muted">
          {mapping.description || 'No description'}
        </Text>
        <Text fontSize="xs" color="fg.muted">
          Updated{' '}
          {new Date(mapping.updatedAt).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}
        </Text>
      </Card.Header>
      <Card.Body py="2">
        <Stack gap="1" fontSize="sm">
          {mapping.mappings.slice(0, SHOWN_PAIRS).map((p) => (
            <Text key={p.templateColumn} truncate>
              <Text as="span" color="fg.muted">
                {p.dataColumn || firstKindLabel(p.transform)}
              </Text>{' '}
              → {p.templateColumn}
            </Text>
          ))}
          {extra > 0 ? <Text color="fg.muted">+{extra} more</Text> : null}
        </Stack>
        <HistorySettingsPanel mapping={mapping} onSave={onSaveHistory} />
        <MappingLastRuns mappingId={mapping.id} locked={mapping.locked} />
      </Card.Body>
      <Card.Footer pt="2" gap="2" flexWrap="wrap">
        {mapping.locked ? (
          <Button asChild size="sm" colorPalette="orange">
            <RouterLink to="/profile#plans">Upgrade to Use</RouterLink>
          </Button>
        ) : (
          <Button asChild size="sm" colorPalette="blue">
            <RouterLink to={`/csv-mapper?loadMapping=${encodeURIComponent(mapping.id)}`}>
              Use Mapping
            </RouterLink>
          </Button>
        )}
        <Button size="sm" variant="outline" onClick={onExport} disabled={mapping.locked}>
          <DownloadIcon /> Export recipe
        </Button>
        <Button
          size="sm"
          variant="ghost"
          colorPalette="red"
          loading={deleting}
          loadingText="Deleting..."
          onClick={onDelete}
        >
          <TrashIcon /> Delete
        </Button>
      </Card.Footer>
    </Card.Root>
  );
}

/** What fills a pair without a data column: its first transform's kind (a chain is a list). */
function firstKindLabel(t: MappingPair['transform']): string {
  const first = Array.isArray(t) ? t[0] : t;
  return first?.kind === 'constant' ? 'Fixed value' : (first?.kind ?? '—');
}
