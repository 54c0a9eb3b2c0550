import { Button, HStack, Link, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { LogOutIcon, UserIcon } from '../../../components/icons';
import { useAuth } from '../hooks/use-auth';
import { useLogOutAction } from '../hooks/use-log-out-action';
import { displayNameOf } from '../utils/display-name';

/** Wide-screen header actions: Profile link, the user's display name, Log Out. */
export function UserMenu() {
  const { user } = useAuth();
  const { logOut, isLoggingOut } = useLogOutAction();
  return (
    <HStack gap="4">
      <Link asChild fontSize="sm" fontWeight="medium" color="fg.muted">
        <RouterLink to="/profile">
          <UserIcon boxSize="4" /> Profile
        </RouterLink>
      </Link>
      <Text fontSize="sm" fontWeight="semibold" maxW="48" truncate data-testid="user-display-name">
        {displayNameOf(user)}
      </Text>
      <Button variant="outline" size="sm" onClick={() => void logOut()} loading={isLoggingOut}>
        <LogOutIcon /> Log Out
      </Button>
    </HStack>
  );
}
