import { Text } from '@chakra-ui/react';

/**
 * Why a pair was suggested (the server's `reason`), as small text on the template card: always visible, so
 * it reads the same on a phone as with a mouse (a tooltip would need a hover).
 */
export function SuggestionReason({ reason }: { reason: string }) {
  return (
    <Text data-testid="suggestion-reason" fontSize="xs" color="purple.fg" mb="2" lineClamp={3}>
      {reason}
    </Text>
  );
}
