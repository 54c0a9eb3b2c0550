import { Center, Spinner, Text, VStack } from '@chakra-ui/react';

/** Shown while the signed-in state loads (spec §2) and while a page's code downloads. */
export function FullScreenSpinner() {
  return (
    <Center minH="100dvh" role="status" aria-live="polite">
      <VStack gap="3">
        <Spinner size="xl" color="blue.600" borderWidth="3px" />
        <Text color="fg.muted">Loading...</Text>
      </VStack>
    </Center>
  );
}
