import { Box, Button, Container, HStack, Link } from '@chakra-ui/react';
import { PageLink as RouterLink } from '../../components/page-link';
import { PublicLogo } from './public-logo';

export interface TopBarProps {
  /** In-page anchors shown on wide screens, e.g. [{ href: '#pricing', label: 'Pricing' }]. */
  anchors?: Array<{ href: string; label: string }>;
  ctaLabel?: string;
}

/** The sticky top bar of public pages: logo to '/', optional section anchors, Log In and the try button. */
export function TopBar({ anchors = [], ctaLabel = 'Get Started Free' }: TopBarProps) {
  return (
    <Box
      as="header"
      position="sticky"
      top="0"
      zIndex="sticky"
      bg="bg/95"
      backdropFilter="saturate(180%) blur(8px)"
      borderBottomWidth="1px"
    >
      <Container maxW="6xl" py="3">
        <HStack justify="space-between" gap="3">
          <PublicLogo />
          <HStack as="nav" aria-label="Main" gap={{ base: '1', md: '5' }}>
            {anchors.map((a) => (
              <Link
                key={a.href}
                href={a.href}
                hideBelow="md"
                color="fg.muted"
                fontWeight="medium"
                fontSize="sm"
              >
                {a.label}
              </Link>
            ))}
            <Button asChild variant="ghost" size="sm" hideBelow="sm">
              <RouterLink to="/auth">Log In</RouterLink>
            </Button>
            <Button asChild colorPalette="blue" size="sm">
              <RouterLink to="/auth" state={{ tab: 'signup' }}>
                {ctaLabel}
              </RouterLink>
            </Button>
          </HStack>
        </HStack>
      </Container>
    </Box>
  );
}
