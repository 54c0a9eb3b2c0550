import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import { DialogFrame } from '../../../components/dialog-frame';
import { ArrowRightIcon } from '../../../components/icons';

/** Spec §3 "Plan change confirmation". */
export interface PlanChange {
  planKey: 'pro' | 'business';
  planName: string;
  currentPrice: string;
  newPrice: string;
  /** A free user subscribes now; a paid user's change waits for the next billing cycle. */
  fromFree: boolean;
}

/** Spec §2/§4 Confirm Plan Change dialog: 'Subscribe Now' for a free user, 'Confirm Change' for a paid one. */
export function ConfirmPlanChangeDialog({
  change,
  busy,
  onConfirm,
  onClose,
}: {
  change: PlanChange | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <DialogFrame
      open={change !== null}
      onClose={() => {
        if (!busy) onClose();
      }}
      title="Confirm Plan Change"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button colorPalette="blue" loading={busy} loadingText="Upgrading..." onClick={onConfirm}>
            {change?.fromFree ? 'Subscribe Now' : 'Confirm Change'}
          </Button>
        </>
      }
    >
      {change ? (
        <Stack gap="4">
          <Text>
            You are changing to the <strong>{change.planName}</strong> plan.
          </Text>
          <HStack
            gap="3"
            justify="center"
            bg="bg.muted"
            rounded="md"
            py="3"
            px="4"
            fontWeight="semibold"
            aria-label={`Price: ${change.currentPrice} to ${change.newPrice}`}
          >
            <Text color="fg.muted" textDecoration="line-through">
              {change.currentPrice}
            </Text>
            <ArrowRightIcon boxSize="4" aria-hidden="true" />
            <Text color="blue.600" _dark={{ color: 'blue.300' }} fontSize="lg">
              {change.newPrice}
            </Text>
          </HStack>
          {change.fromFree ? (
            <Text>
              Your subscription begins today, with immediate access to every {change.planName} feature. You
              will be billed monthly on the same date.
            </Text>
          ) : (
            <Text>
              The change takes effect at the start of your next billing cycle. Until then you keep your
              current plan.
            </Text>
          )}
        </Stack>
      ) : null}
    </DialogFrame>
  );
}
