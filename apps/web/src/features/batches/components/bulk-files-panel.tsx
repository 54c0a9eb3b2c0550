import { Badge, Box, Button, HStack, IconButton, Stack, Text } from '@chakra-ui/react';
import { useRef } from 'react';
import { FileTextIcon, XIcon } from '../../../components/icons';
import { MAX_BATCH_FILES } from '../api/batches';
import type { BulkFile } from '../hooks/use-bulk-files';

export interface BulkFilesPanelProps {
  /** The mapper's data file: its columns drive the mapping. */
  primary: BulkFile;
  extras: BulkFile[];
  uploading: boolean;
  onAdd: (files: File[]) => void;
  onRemove: (id: string) => void;
}

const sameColumns = (a: string[], b: string[]) =>
  a.length === b.length && a.every((h, i) => h.toLowerCase() === b[i].toLowerCase());

/** Bulk uploads: the data files the mapping will run on, with a way to add more (up to 20 in all). */
export function BulkFilesPanel({ primary, extras, uploading, onAdd, onRemove }: BulkFilesPanelProps) {
  const input = useRef<HTMLInputElement>(null);
  const count = extras.length + 1;
  const full = count >= MAX_BATCH_FILES;
  return (
    <Box
      as="section"
      aria-labelledby="bulk-files-title"
      borderWidth="1px"
      borderRadius="lg"
      bg="bg"
      p={{ base: '4', md: '5' }}
      data-testid="bulk-files"
    >
      <HStack justify="space-between" gap="3" flexWrap="wrap">
        <Stack gap="0">
          <Text id="bulk-files-title" fontWeight="semibold">
            {count === 1 ? 'Bulk upload' : `Bulk upload: ${count} data files`}
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {count === 1
              ? `Add more exports with the same columns and this mapping runs on each (up to ${MAX_BATCH_FILES} files).`
              : 'This mapping runs on each file as a background job; you download one ZIP at the end.'}
          </Text>
        </Stack>
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv"
          multiple
          hidden
          data-testid="bulk-file-input"
          onChange={(e) => {
            onAdd(Array.from(e.target.files ?? []));
            e.target.value = '';
          }}
        />
        <Button
          size="sm"
          variant="outline"
          loading={uploading}
          loadingText="Uploading…"
          disabled={full}
          onClick={() => input.current?.click()}
        >
          Add data files
        </Button>
      </HStack>
      {count > 1 ? (
        <Stack as="ul" gap="2" mt="3" m="0" p="0" pt="3" aria-label="Data files in this bulk upload">
          {[primary, ...extras].map((f, i) => (
            <HStack
              as="li"
              key={f.id}
              listStyleType="none"
              justify="space-between"
              gap="2"
              borderTopWidth={i === 0 ? '0' : '1px'}
              pt={i === 0 ? '0' : '2'}
            >
              <HStack gap="2" minW="0">
                <FileTextIcon boxSize="4" color="blue.fg" flexShrink={0} />
                <Text fontSize="sm" truncate title={f.filename}>
                  {f.filename}
                </Text>
                <Text fontSize="xs" color="fg.muted" flexShrink={0}>
                  {f.rowCount.toLocaleString('en-GB')} {f.rowCount === 1 ? 'row' : 'rows'}
                </Text>
                {i > 0 && !sameColumns(f.headers, primary.headers) ? (
                  <Badge colorPalette="orange" size="sm" flexShrink={0}>
                    Different columns
                  </Badge>
                ) : null}
              </HStack>
              {i === 0 ? (
                <Text fontSize="xs" color="fg.muted" flexShrink={0}>
                  Used for the mapping
                </Text>
              ) : (
                <IconButton
                  aria-label={`Remove ${f.filename} from the bulk upload`}
                  variant="ghost"
                  size="xs"
                  onClick={() => onRemove(f.id)}
                >
                  <XIcon />
                </IconButton>
              )}
            </HStack>
          ))}
        </Stack>
      ) : null}
    </Box>
  );
}
