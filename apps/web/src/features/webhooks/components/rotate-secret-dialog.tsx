import { Button, Dialog, Portal, Stack, Text } from '@chakra-ui/react';

/** Asks before rotating an endpoint's signing secret, and says what happens to the old one. */
export function RotateSecretDialog({
  url,
  open,
  busy,
  onConfirm,
  onClose,
}: {
  url: string;
  open: boolean;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(e) => {
        if (!e.open && !busy) onClose();
      }}
      placement="center"
      size={{ base: 'xs', sm: 'md' }}
      role="alertdialog"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Rotate signing secret?</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                <Text>
                  A new secret is created for{' '}
                  <Text as="span" fontFamily="mono" wordBreak="break-all">
                    {url}
                  </Text>{' '}
                  and shown once.
                </Text>
                <Text>
                  The old secret keeps signing alongside the new one for 24 hours: every delivery carries both
                  signatures, so your receiver keeps verifying while you switch it to the new secret. After
                  that, only the new secret signs.
                </Text>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer flexWrap="wrap">
              <Button variant="outline" onClick={onClose} disabled={busy}>
                Cancel
              </Button>
              <Button colorPalette="orange" loading={busy} loadingText="Rotating..." onClick={onConfirm}>
                Rotate secret
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
