import { Button, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { PageLink } from '../../components/page-link';
import { appJsonLd, breadcrumbJsonLd, faqJsonLd, type Faq, type JsonLd } from './seo-head';

// What the public guide pages (QuickBooks, Shopify, converter, uploader) and the landing page share.

/** A guide's structured data: the app, its FAQ when it has one, and its place under Home. */
export function guideJsonLd(path: string, name: string, faqs?: Faq[]): JsonLd[] {
  return [
    appJsonLd(path),
    ...(faqs ? [faqJsonLd(faqs)] : []),
    breadcrumbJsonLd([
      { name: 'Home', path: '/' },
      { name, path },
    ]),
  ];
}

/** The hero's buttons: sign up (`signup` is its label) and, when given, a second way in (one link element). */
export function HeroActions({ signup, more }: { signup: ReactNode; more?: ReactNode }) {
  return (
    <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
      <Button asChild colorPalette="blue" size="xl">
        <PageLink to="/auth" state={{ tab: 'signup' }}>
          {signup}
        </PageLink>
      </Button>
      {more ? (
        <Button asChild variant="outline" size="xl">
          {more}
        </Button>
      ) : null}
    </Stack>
  );
}
