import { Box, Flex, Link } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { PublicFooter } from './public-footer';
import { SeoHead, type SeoHeadProps } from './seo-head';
import { TopBar, type TopBarProps } from './top-bar';

export interface PublicPageProps {
  seo: SeoHeadProps;
  topBar?: TopBarProps;
  /** Adds a "Skip to content" link, the first focusable element of the page. */
  skipLink?: boolean;
  inPageFooterAnchors?: boolean;
  children: ReactNode;
}

/** The frame of every public page: head tags, optional skip link, sticky top bar, <main id="main">, footer. */
export function PublicPage({
  seo,
  topBar,
  skipLink = false,
  inPageFooterAnchors,
  children,
}: PublicPageProps) {
  return (
    <Flex direction="column" minH="100dvh">
      <SeoHead {...seo} />
      {skipLink ? (
        <Link
          href="#main"
          position="fixed"
          left="2"
          top="-16"
          zIndex="skipNav"
          bg="bg"
          color="blue.700"
          px="3"
          py="2"
          rounded="md"
          shadow="md"
          _focus={{ top: '2' }}
        >
          Skip to content
        </Link>
      ) : null}
      <TopBar {...topBar} />
      <Box as="main" id="main" flex="1" tabIndex={-1} outline="none">
        {children}
      </Box>
      <PublicFooter inPageAnchors={inPageFooterAnchors} />
    </Flex>
  );
}
