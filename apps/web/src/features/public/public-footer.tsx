import { Box, Container, Flex, Link, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { PageLink as RouterLink } from '../../components/page-link';
import { PublicLogo } from './public-logo';
import { GUIDE_PAGES } from './public-routes';

const SUPPORT_LINKS = [
  { to: '/help-center', label: 'Help Center' },
  { to: '/documentation', label: 'Documentation' },
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/terms', label: 'Terms of Service' },
];

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack as="nav" aria-label={title} gap="2" minW="36">
      <Text as="h2" fontWeight="semibold" fontSize="sm" color="fg">
        {title}
      </Text>
      {children}
    </Stack>
  );
}

/**
 * The public footer (spec §2): #features, #how-it-works, #pricing, /help-center, /privacy, /terms plus the
 * guides. On the landing page the product links are in-page anchors; elsewhere they point at '/#…'.
 */
export function PublicFooter({ inPageAnchors = false }: { inPageAnchors?: boolean }) {
  const anchor = (id: string) => (inPageAnchors ? `#${id}` : `/#${id}`);
  return (
    <Box as="footer" borderTopWidth="1px" bg="bg.subtle" mt="auto">
      <Container maxW="6xl" py="10">
        <Flex direction={{ base: 'column', md: 'row' }} gap="8" justify="space-between">
          <Stack gap="3" maxW="xs">
            <PublicLogo />
            <Text fontSize="sm" color="fg.muted">
              Turn the CSV export you have into the CSV your accounting, e-commerce or CRM system accepts.
            </Text>
          </Stack>
          <Flex gap="8" wrap="wrap">
            <Column title="Product">
              <Link href={anchor('features')} fontSize="sm" color="fg.muted">
                Features
              </Link>
              <Link href={anchor('how-it-works')} fontSize="sm" color="fg.muted">
                How It Works
              </Link>
              <Link href={anchor('pricing')} fontSize="sm" color="fg.muted">
                Pricing
              </Link>
            </Column>
            <Column title="Guides">
              {GUIDE_PAGES.map((l) => (
                <Link key={l.to} asChild fontSize="sm" color="fg.muted">
                  <RouterLink to={l.to}>{l.label}</RouterLink>
                </Link>
              ))}
            </Column>
            <Column title="Support">
              {SUPPORT_LINKS.map((l) => (
                <Link key={l.to} asChild fontSize="sm" color="fg.muted">
                  <RouterLink to={l.to}>{l.label}</RouterLink>
                </Link>
              ))}
            </Column>
          </Flex>
        </Flex>
        <Text mt="10" fontSize="xs" color="fg.muted">
          © 2025 CSV Mapper. Prices in GBP. Not for children under 13.
        </Text>
      </Container>
    </Box>
  );
}
