import { Button, Card, HStack, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import type { SavedMappingView } from '@csv-mapper/contracts';
import { useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { PlusIcon, UploadIcon } from '../../../components/icons';
import { showToast } from '../../../components/toaster';
import { errorDescription, isUnauthorizedError } from '../../../lib/api-client';
import { useMappingActions, useSavedMappings } from '../api/saved-mappings';
import { SavedMappingCard } from './saved-mapping-card';
import { LockedMappingsDialog } from './locked-mappings-dialog';
import { SavedMappingsBanners } from './saved-mappings-banners';

const EXPORT_FORMAT = 'csv-mapper/mapping@1';

function relogin() {
  showToast({ title: 'Unauthorized', description: 'You are logged out. Logging in again...', type: 'error' });
  window.setTimeout(() => {
    window.location.href = '/api/login';
  }, 500);
}

function exportMapping(m: SavedMappingView) {
  const json = JSON.stringify(
    {
      format: EXPORT_FORMAT,
      name: m.name,
      description: m.description,
      templateHeaders: m.templateHeaders,
      dataHeaders: m.dataHeaders,
      mappings: m.mappings,
    },
    null,
    2,
  );
  const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${m.name.replace(/[^\w.-]+/g, '_') || 'mapping'}.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The /saved-mappings grid with banners, locks, export and import. */
export function SavedMappingsList({ plan, limit }: { plan: string; limit: number }) {
  const { data, error, isLoading } = useSavedMappings();
  const { remove, create } = useMappingActions();
  const [deleting, setDeleting] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  if (error && isUnauthorizedError(error)) relogin();

  const onDelete = async (m: SavedMappingView) => {
    setDeleting(m.id);
    try {
      await remove(m.id);
      showToast({ title: 'Mapping deleted successfully', type: 'success' });
    } catch (err) {
      if (isUnauthorizedError(err)) relogin();
      else
        showToast({
          title: 'Failed to delete mapping',
          description: errorDescription(err, 'Failed to delete mapping'),
          type: 'error',
        });
    } finally {
      setDeleting(null);
    }
  };

  const onImport = async (file: File) => {
    try {
      const parsed = JSON.parse(await file.text()) as Partial<SavedMappingView>;
      if (!Array.isArray(parsed.templateHeaders) || !Array.isArray(parsed.mappings)) {
        throw new SyntaxError('The file is not an exported mapping.');
      }
      await create({
        name: String(parsed.name ?? file.name.replace(/\.json$/i, '')),
        description: parsed.description ?? null,
        templateHeaders: parsed.templateHeaders,
        dataHeaders: Array.isArray(parsed.dataHeaders) ? parsed.dataHeaders : [],
        mappings: parsed.mappings,
      });
      showToast({
        title: 'Mapping saved successfully',
        description: 'You can reuse this mapping configuration later.',
        type: 'success',
      });
    } catch (err) {
      if (isUnauthorizedError(err)) return relogin();
      const invalid = err instanceof SyntaxError;
      showToast({
        title: 'Import failed',
        description: invalid
          ? 'That file is not a mapping exported from CSV Mapper.'
          : errorDescription(err, 'Failed to save mapping'),
        type: 'error',
      });
    }
  };

  const list = data ?? [];
  return (
    <Stack gap="4">
      <SavedMappingsBanners plan={plan} count={list.length} limit={limit} />
      <LockedMappingsDialog plan={plan} lockedCount={list.filter((m) => m.locked).length} />
      <HStack gap="2" flexWrap="wrap">
        <Button asChild colorPalette="blue" size="sm">
          <RouterLink to="/csv-mapper">
            <PlusIcon /> New Mapping
          </RouterLink>
        </Button>
        <Button size="sm" variant="outline" onClick={() => fileInput.current?.click()}>
          <UploadIcon /> Import
        </Button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          hidden
          data-testid="import-mapping-input"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void onImport(f);
          }}
        />
      </HStack>
      {isLoading ? (
        <Spinner />
      ) : list.length === 0 ? (
        <Card.Root>
          <Card.Body alignItems="center" textAlign="center" gap="3" py="12">
            <Text fontWeight="semibold" fontSize="lg">
              No saved mappings yet
            </Text>
            <Text color="fg.muted">Save a mapping in the mapper to reuse it next time.</Text>
            <Button asChild colorPalette="blue">
              <RouterLink to="/csv-mapper">Create Your First Mapping</RouterLink>
            </Button>
          </Card.Body>
        </Card.Root>
      ) : (
        <SimpleGrid columns={{ base: 1, md: 2, lg: 3 }} gap="4">
          {list.map((m) => (
            <SavedMappingCard
              key={m.id}
              mapping={m}
              deleting={deleting === m.id}
              onDelete={() => void onDelete(m)}
              onExport={() => exportMapping(m)}
            />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
