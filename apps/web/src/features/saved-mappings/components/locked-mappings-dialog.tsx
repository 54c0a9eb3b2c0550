import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { upgradeTextFor } from '@csv-mapper/domain';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';

// Remembered for the browser tab, so the dialog opens once rather than on every visit to the page.
const SHOWN_KEY = 'csv-mapper:locked-mappings-dialog-shown';

function alreadyShown(): boolean {
  try {
    return window.sessionStorage.getItem(SHOWN_KEY) === '1';
  } catch {
    return false;
  }
}

function markShown(): void {
  try {
    window.sessionStorage.setItem(SHOWN_KEY, '1');
  } catch {
    // Storage refused (private mode): the dialog may show again, which is harmless.
  }
}

/** Spec §4: after a downgrade, saved mappings beyond the first are locked and an upgrade dialog opens once. */
export function LockedMappingsDialog({ plan, lockedCount }: { plan: string; lockedCount: number }) {
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (lockedCount > 0 && !alreadyShown()) {
      markShown();
      setOpen(true);
    }
  }, [lockedCount]);

  return (
    <Dialog.Root open={open} onOpenChange={(e) => setOpen(e.open)} placement="center" size="md">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Upgrade Required</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text>
                Your subscription has ended and your account is on the Free plan, which includes 1 saved
                mapping. {lockedCount === 1 ? '1 mapping is' : `${lockedCount} mappings are`} locked until you
                upgrade; your first mapping stays usable.
              </Text>
            </Dialog.Body>
            <Dialog.Footer flexWrap="wrap">
              <Button variant="outline" onClick={() => setOpen(false)}>
                Maybe Later
              </Button>
              <Button asChild colorPalette="orange">
                <RouterLink to="/profile#plans">{upgradeTextFor(plan)}</RouterLink>
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
