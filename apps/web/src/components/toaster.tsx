// The app's toasts (spec §9): one at a time, 5000 ms by default, F8 focuses the toast area, full width on
// phones and at most 420px wide from medium screens up. Swiping a toast away comes with the toast machine.
import { Toaster as ChakraToaster, Portal, Spinner, Stack, Toast, createToaster } from '@chakra-ui/react';

export const TOAST_DURATION_MS = 5000;

export const toaster = createToaster({
  placement: 'bottom-end',
  max: 1,
  duration: TOAST_DURATION_MS,
  hotkey: ['F8'],
  pauseOnPageIdle: true,
});

export type ToastKind = 'success' | 'error' | 'info' | 'warning';

export interface ShowToastOptions {
  title: string;
  description?: string;
  /** 'error' is the spec's destructive style. */
  type?: ToastKind;
}

/** Shows one toast, replacing whatever toast is on screen. */
export function showToast({ title, description, type = 'info' }: ShowToastOptions): void {
  toaster.dismiss();
  toaster.create({ title, description, type, closable: true });
}

export function Toaster() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ base: 'full', md: '420px' }} maxWidth={{ md: '420px' }}>
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
