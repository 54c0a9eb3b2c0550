import { Container, Heading, Link, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { PageLink as RouterLink } from '../../components/page-link';
import { ArrowLeftIcon } from '../../components/icons';
import { PublicPage } from './public-page';
import type { SeoHeadProps } from './seo-head';

export function BackToHome() {
  return (
    <Link asChild color="blue.700" fontWeight="medium" fontSize="sm" alignSelf="flex-start">
      <RouterLink to="/">
        <ArrowLeftIcon boxSize="4" /> Back to Home
      </RouterLink>
    </Link>
  );
}

/** The frame of the text pages (terms, privacy, help, docs): Back to Home, h1, optional line under it. */
export function ContentPage({
  seo,
  heading,
  eyebrow,
  children,
  maxW = '3xl',
}: {
  seo: SeoHeadProps;
  heading: string;
  eyebrow?: string;
  children: ReactNode;
  maxW?: string;
}) {
  return (
    <PublicPage seo={seo}>
      <Container maxW={maxW} py={{ base: '8', md: '12' }}>
        <Stack gap="6">
          <BackToHome />
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
          {children}
        </Stack>
      </Container>
    </PublicPage>
  );
}

/** A numbered legal section: h2 plus paragraphs. */
export function LegalSection({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  const id = `section-${n}`;
  return (
    <Stack as="section" aria-labelledby={id} gap="3" color="fg.muted" lineHeight="tall">
      <Heading as="h2" id={id} size="lg" color="fg">
        {n}. {title}
      </Heading>
      {children}
    </Stack>
  );
}
