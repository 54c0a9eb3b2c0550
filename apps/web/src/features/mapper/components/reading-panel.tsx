import { Alert, Box, chakra, Grid, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { InputEncoding, UpdateUploadRequest, UploadRecord } from '@csv-mapper/contracts';
import { errorDescription, isUnauthorizedError } from '../../../lib/api-client';
import { updateUpload } from '../api/update-upload';
import type { MapperFile } from '../hooks/use-mapper-state';
import { HeaderRowPicker } from './header-row-picker';
import { OptionSelect } from './form-controls';

// "Detected": how an uploaded file was read (encoding, delimiter, header row or none, rows, columns, and the
// sheet of a workbook), with a control for each. A change reads the stored file again on the server (PATCH
// /api/upload/:id); nothing is uploaded again.

const ENCODINGS: { value: InputEncoding; label: string }[] = [
  { value: 'utf-8', label: 'UTF-8' },
  { value: 'utf-16le', label: 'UTF-16 LE' },
  { value: 'utf-16be', label: 'UTF-16 BE' },
  { value: 'windows-1252', label: 'Windows-1252' },
  { value: 'iso-8859-1', label: 'ISO-8859-1' },
];

const DELIMITERS: { value: string; label: string }[] = [
  { value: ',', label: 'Comma ,' },
  { value: ';', label: 'Semicolon ;' },
  { value: '\t', label: 'Tab' },
  { value: '|', label: 'Pipe |' },
];

export interface ReadingPanelProps {
  kind: 'template' | 'data';
  file: MapperFile;
  /** The file as read with the new choice. */
  onReread: (file: UploadRecord) => void;
  /** A 401 on the way: the caller sends the person to sign in again. */
  onUnauthorized: () => void;
}

export function ReadingPanel({ kind, file, onReread, onUnauthorized }: ReadingPanelProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (file.firstLines === undefined || file.headerRow === undefined) return null; // a built-in template
  const workbook = file.format === 'xlsx';

  const choose = async (choice: UpdateUploadRequest) => {
    setBusy(true);
    setError(null);
    try {
      onReread(await updateUpload(file.id, choice));
    } catch (err) {
      if (isUnauthorizedError(err)) return onUnauthorized();
      setError(errorDescription(err, 'The file could not be read that way.'));
    } finally {
      setBusy(false);
    }
  };

  const select = (
    label: string,
    value: string,
    options: { value: string; label: string }[],
    onChange: (v: string) => void,
  ) => (
    <Stack gap="1" minW="0">
      <chakra.label fontSize="xs" color="fg.muted" htmlFor={`${kind}-read-${label}`}>
        {label}
      </chakra.label>
      <OptionSelect
        size="sm"
        disabled={busy}
        fieldProps={{ id: `${kind}-read-${label}`, 'data-testid': `${kind}-read-${label.toLowerCase()}` }}
        value={value}
        options={options}
        onChange={onChange}
      />
    </Stack>
  );

  const fact = (label: string, value: string, testId: string) => (
    <Stack gap="1" minW="0">
      <Text fontSize="xs" color="fg.muted">
        {label}
      </Text>
      <Text fontSize="sm" fontWeight="medium" data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );

  return (
    <Box
      mt="4"
      pt="4"
      borderTopWidth="1px"
      data-testid={`${kind}-reading`}
      aria-busy={busy}
      opacity={busy ? 0.7 : 1}
    >
      <Text fontSize="sm" fontWeight="semibold" mb="3">
        Detected
      </Text>
      <Grid templateColumns={{ base: 'repeat(2, minmax(0, 1fr))', md: 'repeat(5, minmax(0, 1fr))' }} gap="3">
        {workbook
          ? select(
              'Sheet',
              file.sheet ?? '',
              (file.sheets ?? []).map((s) => ({
                value: s.name,
                label: `${s.name} (${s.rows.toLocaleString('en-GB')} rows${s.hidden ? ', hidden' : ''})`,
              })),
              (sheet) => void choose({ sheet }),
            )
          : select(
              'Encoding',
              file.encoding ?? 'utf-8',
              ENCODINGS,
              (v) => void choose({ encoding: v as InputEncoding }),
            )}
        {workbook
          ? null
          : select(
              'Delimiter',
              file.delimiter ?? ',',
              DELIMITERS,
              (v) => void choose({ delimiter: v as UpdateUploadRequest['delimiter'] }),
            )}
        {fact(
          'Header row',
          file.headerRow === 0 ? 'None' : `Line ${file.headerRow}`,
          `${kind}-read-header-row`,
        )}
        {fact('Rows', (file.rowCount ?? 0).toLocaleString('en-GB'), `${kind}-read-rows`)}
        {fact('Columns', String(file.headers.length), `${kind}-read-columns`)}
      </Grid>
      {error ? (
        <Alert.Root status="error" mt="3" size="sm" data-testid={`${kind}-read-error`}>
          <Alert.Indicator />
          <Alert.Description>{error}</Alert.Description>
        </Alert.Root>
      ) : null}
      {file.firstLines.length > 0 ? (
        <HeaderRowPicker
          kind={kind}
          lines={file.firstLines}
          headerRow={file.headerRow}
          detectedHeaderRow={file.detectedHeaderRow}
          busy={busy}
          onChoose={(headerRow) => void choose({ headerRow })}
        />
      ) : null}
    </Box>
  );
}
