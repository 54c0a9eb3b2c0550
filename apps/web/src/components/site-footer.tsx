import { Box, Container, Flex, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import type { ReactNode } from 'react';
import { Logo } from './logo';

const PRODUCT_LINKS = [
  { href: '/#features', label: 'Features' },
  { href: '/#how-it-works', label: 'How It Works' },
  { href: '/#pricing', label: 'Pricing' },
];
const GUIDE_LINKS = [
  { to: '/csv-converter-online', label: 'CSV Converter Online' },
  { to: '/shopify-csv-upload', label: 'Shopify CSV Upload' },
  { to: '/quickbooks-csv-import', label: 'QuickBooks CSV Import' },
  { to: '/csv-uploader', label: 'CSV Uploader' },
];
const SUPPORT_LINKS = [
  { to: '/help-center', label: 'Help Center' },
  { to: '/documentation', label: 'Documentation' },
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/terms', label: 'Terms of Service' },
];

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack as="nav" aria-label={title} gap="2" minW="40">
      <Text fontWeight="semibold" fontSize="sm" color="fg">
        {title}
      </Text>
      {children}
    </Stack>
  );
}

/** The public footer. On the landing page the product links are in-page anchors. */
export function SiteFooter({ inPageAnchors = false }: { inPageAnchors?: boolean }) {
  return (
    <Box as="footer" borderTopWidth="1px" bg="bg.subtle" mt="auto">
      <Container maxW="6xl" py="10">
        <Flex direction={{ base: 'column', md: 'row' }} gap="8" justify="space-between">
          <Stack gap="3" maxW="xs">
            <Logo />
            <Text fontSize="sm" color="fg.muted">
              Map any CSV export onto the template your target system expects. Files are processed in memory
              and never stored.
            </Text>
          </Stack>
          <Flex gap="8" wrap="wrap">
            <Column title="Product">
              {PRODUCT_LINKS.map((l) => (
                <Link
                  key={l.href}
                  href={inPageAnchors ? l.href.slice(1) : l.href}
                  fontSize="sm"
                  color="fg.muted"
                >
                  {l.label}
                </Link>
              ))}
            </Column>
            <Column title="Guides">
              {GUIDE_LINKS.map((l) => (
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
        <Text mt="10" fontSize="xs" color="fg.subtle">
          © {new Date().getFullYear()} CSV Mapper. Not for children under 13.
        </Text>
      </Container>
    </Box>
  );
}
