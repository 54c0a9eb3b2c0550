import { Alert, Box } from '@chakra-ui/react';
import { useProfile } from '../../account/api/get-profile';

/**
 * Shown on every signed-in page to a member beyond the plan's seats after a downgrade: they can read the
 * team's data, not change it, until the account holder removes a member or upgrades.
 */
export function TeamReadOnlyBanner() {
  const { data: profile } = useProfile();
  if (!profile?.team?.readOnly) return null;
  return (
    <Box px={{ base: '3', md: '6' }} pt="3" maxW="7xl" mx="auto">
      <Alert.Root status="warning" variant="subtle" data-testid="team-read-only-banner">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>This team is read-only for you</Alert.Title>
          <Alert.Description>
            The team has more members than its plan includes. You can view its saved mappings, jobs and
            settings, but not change them, until the account holder removes a member or upgrades the plan.
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
    </Box>
  );
}
