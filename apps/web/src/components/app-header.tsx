import { Box, Container, HStack, IconButton, Link, Menu, Portal, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { ArrowLeftIcon, MenuIcon } from './icons';
import { Logo } from './logo';

export type AppMenuItem = { label: string; to: string } | { label: string; onSelect: () => void };

export interface AppHeaderProps {
  /** A back link shown instead of the logo's neighbour, e.g. { to: '/dashboard', label: 'Back to Dashboard' }. */
  back?: { to: string; label: string };
  /** Right-hand content on medium screens and up. */
  actions?: ReactNode;
  /** Content that stays visible on every screen size, before the menu button. */
  persistent?: ReactNode;
  /** The small-screen menu. */
  menuItems: AppMenuItem[];
  /** A heading inside the small-screen menu, e.g. 'Signed in as Ana'. */
  menuLabel?: string;
}

/** The header of signed-in pages: logo or back link, actions on wide screens, a menu on small ones. */
export function AppHeader({ back, actions, persistent, menuItems, menuLabel }: AppHeaderProps) {
  const navigate = useNavigate();
  return (
    <Box as="header" position="sticky" top="0" zIndex="sticky" bg="bg" borderBottomWidth="1px">
      <Container maxW="6xl" py="3">
        <HStack justify="space-between" gap="3">
          <HStack gap="5" minW="0">
            {back ? (
              <Link asChild color="fg.muted" fontWeight="medium" fontSize="sm">
                <RouterLink to={back.to}>
                  <ArrowLeftIcon boxSize="4" /> {back.label}
                </RouterLink>
              </Link>
            ) : (
              <Logo to="/dashboard" />
            )}
          </HStack>
          <HStack gap="3">
            {persistent}
            <HStack gap="3" hideBelow="md">
              {actions}
            </HStack>
            <Box hideFrom="md">
              <Menu.Root
                onSelect={({ value }) => {
                  const item = menuItems.find((i) => i.label === value);
                  if (!item) return;
                  if ('to' in item) navigate(item.to);
                  else item.onSelect();
                }}
              >
                <Menu.Trigger asChild>
                  <IconButton aria-label="Open menu" variant="outline" size="sm">
                    <MenuIcon />
                  </IconButton>
                </Menu.Trigger>
                <Portal>
                  <Menu.Positioner>
                    <Menu.Content minW="48">
                      {menuLabel ? (
                        <Text px="2" py="1.5" fontSize="xs" color="fg.muted" truncate maxW="60">
                          {menuLabel}
                        </Text>
                      ) : null}
                      {menuItems.map((item) => (
                        <Menu.Item key={item.label} value={item.label}>
                          {item.label}
                        </Menu.Item>
                      ))}
                    </Menu.Content>
                  </Menu.Positioner>
                </Portal>
              </Menu.Root>
            </Box>
          </HStack>
        </HStack>
      </Container>
    </Box>
  );
}

/** The places of the signed-in app, as every signed-in page's small-screen menu lists them. */
export const APP_PLACES: AppMenuItem[] = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'Start New Mapping', to: '/csv-mapper' },
  { label: 'Saved Mappings', to: '/saved-mappings' },
  { label: 'Profile', to: '/profile' },
];

/** The header of a page below the dashboard: the way back to it and the app's places. */
export function SubpageHeader({ persistent }: { persistent?: ReactNode }) {
  return (
    <AppHeader
      back={{ to: '/dashboard', label: 'Back to Dashboard' }}
      persistent={persistent}
      menuItems={APP_PLACES}
    />
  );
}
