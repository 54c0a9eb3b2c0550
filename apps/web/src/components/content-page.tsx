import { Container, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { BackToHomeLink } from './back-to-home-link';
import { PageMeta, type PageMetaProps } from './page-meta';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

export interface ContentPageProps {
  meta: PageMetaProps;
  heading: string;
  /** A short line under the heading, e.g. the last-updated date. */
  eyebrow?: string;
  children: ReactNode;
}

/** The frame of public text pages: site header, Back to Home link, heading, body, footer. */
export function ContentPage({ meta, heading, eyebrow, children }: ContentPageProps) {
  return (
    <Flex direction="column" minH="100dvh">
      <PageMeta {...meta} />
      <SiteHeader />
      <Container as="main" id="main" maxW="3xl" py={{ base: '8', md: '14' }} flex="1">
        <Stack gap="6">
          <BackToHomeLink />
          <Stack gap="2">
            <Heading as="h1" size={{ base: '2xl', md: '4xl' }} letterSpacing="-0.02em">
              {heading}
            </Heading>
            {eyebrow ? (
              <Text color="fg.muted" fontSize="sm">
                {eyebrow}
              </Text>
            ) : null}
          </Stack>
          <Stack gap="4" color="fg.muted" lineHeight="tall">
            {children}
          </Stack>
        </Stack>
      </Container>
      <SiteFooter />
    </Flex>
  );
}
