import { Button, Field, Input, List, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { PLANS, upgradeTargetFor } from '@csv-mapper/domain';
import type { DuplicatesMode } from '@csv-mapper/contracts';
import { DialogFrame, type DialogFrameProps } from '../../../components/dialog-frame';
import { DuplicatesField } from './duplicates-field';

// The mapper's dialogs (spec §2): File Too Large, File Has Too Many Rows, Limit Reached, Save Mapping.

/** The mapper's dialogs' frame: their body is a stack of paragraphs and lists. */
function Frame({ children, ...frame }: DialogFrameProps) {
  return (
    <DialogFrame {...frame}>
      <Stack gap="3">{children}</Stack>
    </DialogFrame>
  );
}

function UpgradeList({ plan }: { plan: string }) {
  const target = PLANS[upgradeTargetFor(plan)];
  if (target.upgradeBenefits.length === 0) return null;
  return (
    <Stack gap="1">
      <Text fontWeight="medium">Upgrade to {target.name} for:</Text>
      <List.Root ps="5">
        {target.upgradeBenefits.map((b) => (
          <List.Item key={b}>{b}</List.Item>
        ))}
      </List.Root>
    </Stack>
  );
}

export interface FileTooLargeInfo {
  fileName: string;
  size: string;
  limit: string;
}

export function FileTooLargeDialog({
  info,
  plan,
  onTryAnother,
  onClose,
}: {
  info: FileTooLargeInfo | null;
  plan: string;
  onTryAnother: () => void;
  onClose: () => void;
}) {
  return (
    <Frame
      open={info !== null}
      onClose={onClose}
      title="File Too Large"
      footer={
        <>
          <Button variant="outline" onClick={onTryAnother}>
            Try Another File
          </Button>
          <Button asChild colorPalette="blue">
            <RouterLink to="/profile">Upgrade Plan</RouterLink>
          </Button>
        </>
      }
    >
      {info ? (
        <>
          <Text>
            <strong>{info.fileName}</strong> is {info.size}, which exceeds your plan limit of {info.limit}.
          </Text>
          <UpgradeList plan={plan} />
        </>
      ) : null}
    </Frame>
  );
}

export interface RowLimitInfo {
  fileName: string;
  actualRows: number;
  maxRows: number;
}

export function RowLimitDialog({
  info,
  onProceed,
  onCancel,
}: {
  info: RowLimitInfo | null;
  onProceed: () => void;
  onCancel: () => void;
}) {
  const max = info ? info.maxRows.toLocaleString('en-GB') : '';
  return (
    <Frame
      open={info !== null}
      onClose={onCancel}
      title="File Has Too Many Rows"
      footer={
        <>
          <Button variant="outline" onClick={onCancel}>
            Upload Different File
          </Button>
          <Button colorPalette="blue" onClick={onProceed}>
            Proceed with {max} Rows
          </Button>
        </>
      }
    >
      {info ? (
        <>
          <Text>
            <strong>{info.fileName}</strong> has {info.actualRows.toLocaleString('en-GB')} rows. Your plan
            allows {max} rows per file.
          </Text>
          <Text color="fg.muted">
            If you proceed, only the first {max} rows will be processed; the remaining{' '}
            {(info.actualRows - info.maxRows).toLocaleString('en-GB')} rows are left out of the generated CSV.
          </Text>
        </>
      ) : null}
    </Frame>
  );
}

export function limitDialogTitle(limitType: string | null | undefined): string {
  if (limitType === 'monthlyQuota') return 'Monthly Processing Limit Reached';
  if (limitType === 'rows') return 'File Row Limit Exceeded';
  return 'Processing Limit Reached';
}

export function LimitReachedDialog({
  open,
  limitType,
  rowsProcessed,
  totalRows,
  plan,
  onClose,
}: {
  open: boolean;
  limitType: string | null;
  rowsProcessed: number;
  totalRows: number;
  plan: string;
  onClose: () => void;
}) {
  return (
    <Frame
      open={open}
      onClose={onClose}
      title={limitDialogTitle(limitType)}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Continue with the current plan
          </Button>
          <Button asChild colorPalette="blue">
            <RouterLink to="/profile">Upgrade Now</RouterLink>
          </Button>
        </>
      }
    >
      <Text>
        Processed {rowsProcessed.toLocaleString('en-GB')} of {totalRows.toLocaleString('en-GB')} rows due to
        plan limits.
        {limitType === 'monthlyQuota'
          ? ' Your monthly row allowance is used up; it resets on the 1st of next month.'
          : ' Your plan limits how many rows of one file are processed.'}
      </Text>
      <UpgradeList plan={plan} />
    </Frame>
  );
}

export function SaveMappingDialog({
  open,
  onClose,
  onSave,
}: {
  open: boolean;
  onClose: () => void;
  onSave: (name: string, description: string, duplicates: DuplicatesMode) => Promise<boolean>;
}) {
  const [name, setName] = useState('');
  const [duplicates, setDuplicates] = useState<DuplicatesMode>('flag');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const close = () => {
    setError(null);
    onClose();
  };
  const submit = async () => {
    if (!name.trim()) {
      setError('Please enter a name for the mapping');
      return;
    }
    setSaving(true);
    const ok = await onSave(name.trim(), description.trim(), duplicates);
    setSaving(false);
    if (ok) {
      setName('');
      setDescription('');
      setDuplicates('flag');
      close();
    }
  };
  return (
    <Frame
      open={open}
      onClose={close}
      title="Save Mapping Configuration"
      footer={
        <>
          <Button variant="outline" onClick={close}>
            Cancel
          </Button>
          <Button colorPalette="blue" loading={saving} loadingText="Saving..." onClick={() => void submit()}>
            Save Mapping
          </Button>
        </>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="4">
          <Field.Root required invalid={error !== null}>
            <Field.Label>
              Name <Field.RequiredIndicator />
            </Field.Label>
            <Input
              value={name}
              maxLength={200}
              placeholder="e.g. Monthly bank export"
              onChange={(e) => {
                setName(e.target.value);
                setError(null);
              }}
            />
            {error ? <Field.ErrorText>{error}</Field.ErrorText> : null}
          </Field.Root>
          <Field.Root>
            <Field.Label>Description (optional)</Field.Label>
            <Textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={3} />
          </Field.Root>
          <DuplicatesField value={duplicates} onChange={setDuplicates} />
        </Stack>
      </form>
    </Frame>
  );
}
