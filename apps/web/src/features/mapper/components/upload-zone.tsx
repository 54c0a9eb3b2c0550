import { Badge, Box, Button, HStack, IconButton, Progress, Stack, Text, Wrap } from '@chakra-ui/react';
import { useRef, useState, type DragEvent, type ReactNode } from 'react';
import { FileTextIcon, UploadIcon, XIcon } from '../../../components/icons';
import type { UploadType } from '@csv-mapper/contracts';
import type { MapperFile } from '../hooks/use-mapper-state';
import { plural } from '../../../lib/plural';

export interface UploadZoneProps {
  kind: UploadType;
  file: MapperFile | null;
  uploading: boolean;
  /** e.g. '1MB' from the plan (spec: default 1MB). */
  maxSizeText: string;
  onFile: (file: File) => void;
  onRemove: () => void;
  /** Bulk uploads: several files may be dropped or chosen at once (each goes to `onFiles`). */
  multiple?: boolean;
  onFiles?: (files: File[]) => void;
  /** Bytes sent so far of a direct upload (Enterprise): shows a progress bar and a Cancel button. */
  progress?: { sent: number; total: number } | null;
  onCancel?: () => void;
  /** Shown under an uploaded file (the reading panel). */
  children?: ReactNode;
}

function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Spec §5: CSV (text/csv or a .csv name) or an Excel workbook (.xlsx); other files are ignored without a
 * message. Legacy .xls goes to the server too, which says to save it as .xlsx or CSV.
 */
export function isCsvFile(f: File): boolean {
  return f.type === 'text/csv' || f.type === XLSX_TYPE || /\.(csv|xlsx|xls)$/i.test(f.name);
}

/** An upload zone (spec §4): empty, drag-hover, uploading, uploaded. */
export function UploadZone({
  kind,
  file,
  uploading,
  maxSizeText,
  onFile,
  onRemove,
  multiple = false,
  onFiles,
  progress,
  onCancel,
  children,
}: UploadZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const [hover, setHover] = useState(false);
  const title = kind === 'template' ? 'template' : 'data';

  const take = (files: FileList | null) => {
    const picked = Array.from(files ?? []);
    if (multiple && onFiles && picked.length > 1) {
      const accepted = picked.filter(isCsvFile);
      if (accepted.length > 0) onFiles(accepted);
      return;
    }
    const first = picked[0];
    if (first && isCsvFile(first)) onFile(first);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setHover(false);
    if (!uploading) take(e.dataTransfer.files);
  };

  if (file) {
    const rows = file.rowCount > 0 ? `, ${plural(file.rowCount, 'row')}` : '';
    return (
      <Box
        borderWidth="1px"
        borderRadius="lg"
        bg="bg"
        p={{ base: '4', md: '6' }}
        data-testid={`${kind}-uploaded`}
      >
        <HStack justify="space-between" align="flex-start" gap="3">
          <HStack gap="3" minW="0" align="flex-start">
            <FileTextIcon boxSize="6" color="blue.fg" flexShrink={0} mt="1" />
            <Stack gap="0" minW="0">
              <Text fontWeight="semibold" wordBreak="break-all">
                {file.filename}
              </Text>
              <Text color="fg.muted" fontSize="sm">
                {plural(file.headers.length, 'column')}
                {rows} detected
              </Text>
              {file.encoding && file.encoding !== 'utf-8' && file.encodingReason ? (
                // A guessed code page can garble names: say so, so the user can re-export as UTF-8.
                <Text color="orange.fg" fontSize="sm" data-testid={`${kind}-encoding-note`}>
                  {file.encodingReason}
                </Text>
              ) : null}
            </Stack>
          </HStack>
          <IconButton aria-label={`Remove ${title} file`} variant="ghost" size="sm" onClick={onRemove}>
            <XIcon />
          </IconButton>
        </HStack>
        <Text mt="4" mb="2" fontSize="sm" fontWeight="medium">
          {kind === 'template' ? 'Template Headers:' : 'Data Headers:'}
        </Text>
        <Wrap gap="2">
          {file.headers.map((h, i) => (
            <Badge key={`${h}-${i}`} variant="subtle" colorPalette="blue" size="md">
              {h}
            </Badge>
          ))}
        </Wrap>
        {children}
      </Box>
    );
  }

  return (
    <Box
      borderWidth="2px"
      borderStyle="dashed"
      borderColor={hover ? 'blue.solid' : 'border'}
      bg={hover ? 'blue.subtle' : 'bg'}
      borderRadius="lg"
      p={{ base: '6', md: '10' }}
      textAlign="center"
      opacity={uploading && !progress ? 0.6 : 1}
      pointerEvents={uploading ? 'none' : 'auto'}
      aria-busy={uploading}
      data-testid={`${kind}-dropzone`}
      data-state={uploading ? 'uploading' : hover ? 'drag-hover' : 'empty'}
      onDragOver={(e) => {
        e.preventDefault();
        if (!uploading) setHover(true);
      }}
      onDragLeave={() => setHover(false)}
      onDrop={onDrop}
    >
      <Stack align="center" gap="3">
        <UploadIcon boxSize="8" color="fg.muted" />
        <Text fontWeight="semibold">
          {uploading ? 'Uploading...' : `Drop your ${title} CSV or Excel file here`}
        </Text>
        {uploading && progress ? (
          <Stack gap="2" w="full" maxW="md" pointerEvents="auto" data-testid={`${kind}-upload-progress`}>
            <Progress.Root
              value={progress.total > 0 ? Math.round((progress.sent / progress.total) * 100) : 0}
              size="sm"
              colorPalette="blue"
            >
              <Progress.Track aria-label={`Upload progress of the ${title} file`}>
                <Progress.Range />
              </Progress.Track>
            </Progress.Root>
            <HStack justify="space-between" gap="3">
              <Text fontSize="sm" color="fg.muted" aria-live="polite">
                {mb(progress.sent)} of {mb(progress.total)} sent
              </Text>
              {onCancel ? (
                <Button size="sm" variant="outline" onClick={onCancel}>
                  Cancel upload
                </Button>
              ) : null}
            </HStack>
          </Stack>
        ) : null}
        <Text color="fg.muted" fontSize="sm">
          {kind === 'template'
            ? 'File should contain headers only'
            : 'File should contain headers and data rows'}
        </Text>
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv,.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          multiple={multiple}
          hidden
          data-testid={`${kind}-file-input`}
          onChange={(e) => {
            take(e.target.files);
            e.target.value = '';
          }}
        />
        <Button colorPalette="blue" disabled={uploading} onClick={() => input.current?.click()}>
          Choose File
        </Button>
        <Text color="fg.muted" fontSize="xs">
          Maximum file size: {maxSizeText}
          {multiple ? ' · choose up to 20 files with the same columns to map them all at once' : ''}
        </Text>
      </Stack>
    </Box>
  );
}
