import { Dialog, Portal } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/**
 * A centred dialog with a title, a body and a footer of buttons. Closing it (Escape, the backdrop) calls
 * `onClose`; the body is left out when `children` is null.
 */
export interface DialogFrameProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  footer: ReactNode;
}

export function DialogFrame({ open, onClose, title, children, footer }: DialogFrameProps) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(e) => {
        if (!e.open) onClose();
      }}
      placement="center"
      size="md"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            {children != null ? <Dialog.Body>{children}</Dialog.Body> : null}
            <Dialog.Footer flexWrap="wrap">{footer}</Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
