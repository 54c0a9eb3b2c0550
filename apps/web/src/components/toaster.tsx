// The app's toasts (spec §9): one at a time, 5000 ms by default, F8 focuses the toast area, full width on
// phones and at most 420px wide from medium screens up. Swiping a toast away comes with the toast machine.
// Toasts sit at the top end, just under the sticky header: the mapper's primary actions (Generate CSV,
// Download) live in a bottom action bar, which a bottom toast covered at 1280 px.
import { Toaster as ChakraToaster, Portal, Spinner, Stack, Toast, createToaster } from '@chakra-ui/react';

export const TOAST_DURATION_MS = 5000;

export const toaster = createToaster({
  placement: 'top-end',
  offsets: { top: '4.5rem', right: '1rem', bottom: '1rem', left: '1rem' },
  max: 1,
  duration: TOAST_DURATION_MS,
  hotkey: ['F8'],
  pauseOnPageIdle: true,
});

/**
 * Chakra's green and orange toast fills are too light for white text (about 3.3:1) and the description is
 * dimmed further; these darker fills keep both at 4.5:1 or more (WCAG AA).
 */
const TOAST_CONTRAST = {
  '&[data-type=success]': { bg: 'green.700' },
  '&[data-type=warning]': { bg: 'orange.700' },
  '&[data-type=error]': { bg: 'red.700' },
  '& [data-part=description]': { opacity: 1 },
} as const;

export type ToastKind = 'success' | 'error' | 'info' | 'warning';

export interface ShowToastOptions {
  title: string;
  description?: string;
  /** 'error' is the spec's destructive style. */
  type?: ToastKind;
}

/**
 * Shows one toast, replacing whatever toast is on screen. The old one is removed at once, not dismissed: with
 * `max: 1` a new toast waits in the store's queue until the dismissed one has left, and one dismissed before it
 * had mounted stayed on screen, so the next toast never came (seen as "Mapping loaded" missing after an upload).
 */
export function showToast({ title, description, type = 'info' }: ShowToastOptions): void {
  toaster.remove();
  toaster.create({ title, description, type, closable: true });
}

export function Toaster() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root
            width={{ base: 'full', md: '420px' }}
            maxWidth={{ md: '420px' }}
            css={TOAST_CONTRAST}
            data-testid="toast"
          >
            {toast.type === 'loading' ? <Spinner size="sm" color="blue.solid" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title ? <Toast.Title>{toast.title}</Toast.Title> : null}
              {toast.description ? <Toast.Description>{toast.description}</Toast.Description> : null}
            </Stack>
            {toast.closable ? <Toast.CloseTrigger /> : null}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
