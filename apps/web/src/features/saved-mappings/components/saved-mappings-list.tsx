import { Button, Card, HStack, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import type { SavedMappingView } from '@csv-mapper/contracts';
import { useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { PlusIcon, UploadIcon } from '../../../components/icons';
import { showToast } from '../../../components/toaster';
import { errorDescription, isUnauthorizedError } from '../../../lib/api-client';
import { downloadText } from '../../../lib/download';
import { getRecipe, useMappingActions, useSavedMappings } from '../api/saved-mappings';
import { SavedMappingCard } from './saved-mapping-card';
import { LockedMappingsDialog } from './locked-mappings-dialog';
import { SavedMappingsBanners } from './saved-mappings-banners';

/** The format of exports made before recipes existed; still imported. */
const LEGACY_EXPORT_FORMAT = 'csv-mapper/mapping@1';

function relogin() {
  showToast({ title: 'Unauthorized', description: 'You are logged out. Logging in again...', type: 'error' });
  window.setTimeout(() => {
    window.location.href = '/api/login';
  }, 500);
}

/** A file name from the mapping's name: letters, digits, dot and dash kept. */
export function recipeFilename(name: string): string {
  return `${name.replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '') || 'mapping'}.recipe.json`;
}

/** The /saved-mappings grid with banners, locks, export and import. */
export function SavedMappingsList({ plan, limit }: { plan: string; limit: number }) {
  const { data, error, isLoading } = useSavedMappings();
  const { remove, create, importRecipe, saveHistorySettings } = useMappingActions();
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

  const onExport = async (m: SavedMappingView) => {
    try {
      const recipe = await getRecipe(m.id);
      downloadText(JSON.stringify(recipe, null, 2) + '\n', recipeFilename(m.name), 'application/json');
    } catch (err) {
      if (isUnauthorizedError(err)) return relogin();
      showToast({
        title: 'Export failed',
        description: errorDescription(err, 'The recipe could not be made.'),
        type: 'error',
      });
    }
  };

  const onImport = async (file: File) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch {
      showToast({
        title: 'Import failed',
        description: `${file.name} is not a JSON file. Choose a recipe exported from CSV Mapper (.recipe.json).`,
        type: 'error',
      });
      return;
    }
    try {
      const legacy = parsed as Partial<SavedMappingView> & { format?: unknown };
      if (legacy && legacy.format === LEGACY_EXPORT_FORMAT) {
        await create({
          name: String(legacy.name ?? file.name.replace(/\.json$/i, '')),
          description: legacy.description ?? null,
          templateHeaders: legacy.templateHeaders ?? [],
          dataHeaders: Array.isArray(legacy.dataHeaders) ? legacy.dataHeaders : [],
          mappings: legacy.mappings ?? [],
        });
      } else {
        await importRecipe(parsed);
      }
      showToast({
        title: 'Mapping saved successfully',
        description: 'You can reuse this mapping configuration later.',
        type: 'success',
      });
    } catch (err) {
      if (isUnauthorizedError(err)) return relogin();
      showToast({
        title: 'Import failed',
        description: errorDescription(err, 'The recipe could not be imported.'),
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
          <UploadIcon /> Import recipe
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
              onExport={() => void onExport(m)}
              onSaveHistory={(settings) => saveHistorySettings(m, settings)}
            />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
