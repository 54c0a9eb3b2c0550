// Head tags of every public page (spec §2): title, description, canonical, Open Graph + Twitter (large image
// card, en_GB, 1200×630), robots, and JSON-LD for landing pages. React 19 hoists <title>/<meta>/<link> into
// <head>; the prerender script moves them there in the static HTML too. URLs are absolute, built from
// SITE_URL (VITE_SITE_URL at build time), so the server-rendered and hydrated tags are identical.
import { PLANS, PLAN_KEYS } from '@csv-mapper/domain';

export const SITE_URL = (
  (import.meta.env.VITE_SITE_URL as string | undefined) || 'https://csvmapper.app'
).replace(/\/$/, '');
export const SITE_NAME = 'CSV Mapper';
export const OG_IMAGE = '/og-image.png';

export type JsonLd = Record<string, unknown>;

export interface SeoHeadProps {
  title: string;
  description: string;
  /** Path of the canonical address, e.g. '/terms'. */
  path: string;
  robots?: string;
  jsonLd?: JsonLd[];
}

export function absoluteUrl(path: string): string {
  return `${SITE_URL}${path === '/' ? '/' : path}`;
}

export function SeoHead({ title, description, path, robots = 'index, follow', jsonLd = [] }: SeoHeadProps) {
  const url = absoluteUrl(path);
  const fullTitle = title.includes(SITE_NAME) ? title : `${title} | ${SITE_NAME}`;
  const image = `${SITE_URL}${OG_IMAGE}`;
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <meta name="robots" content={robots} />
      <link rel="canonical" href={url} />
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={SITE_NAME} />
      <meta property="og:locale" content="en_GB" />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      <meta property="og:image" content={image} />
      <meta property="og:image:type" content="image/png" />
      <meta property="og:image:width" content="1200" />
      <meta property="og:image:height" content="630" />
      <meta
        property="og:image:alt"
        content="CSV Mapper: map any CSV export onto the template your software expects"
      />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={fullTitle} />
      <meta name="twitter:description" content={description} />
      <meta name="twitter:image" content={image} />
      {jsonLd.map((data, i) => (
        <script
          key={i}
          type="application/ld+json"
          // JSON is not HTML: escape '<' so a value can never close the script element.
          dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, '\\u003c') }}
        />
      ))}
    </>
  );
}

export interface Faq {
  q: string;
  a: string;
}

export function faqJsonLd(faqs: Faq[]): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: faqs.map((f) => ({
      '@type': 'Question',
      name: f.q,
      acceptedAnswer: { '@type': 'Answer', text: f.a },
    })),
  };
}

/** The product as a WebApplication; offers come from the plan catalogue (Enterprise has no list price). */
export function appJsonLd(path: string): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': ['SoftwareApplication', 'WebApplication'],
    name: SITE_NAME,
    url: absoluteUrl(path),
    applicationCategory: 'BusinessApplication',
    operatingSystem: 'Any (web browser)',
    description:
      'Map CSV exports onto the template your accounting, e-commerce or CRM system expects: drag-and-drop column mapping, date, number and amount normalisation, saved mappings.',
    featureList: [
      'CSV column mapping',
      'Data transformation',
      'File format conversion',
      'Template management',
      'Drag and drop',
      'Bulk processing',
    ],
    offers: PLAN_KEYS.filter((k) => PLANS[k].priceGbp !== null).map((k) => ({
      '@type': 'Offer',
      name: PLANS[k].name,
      price: String(PLANS[k].priceGbp),
      priceCurrency: 'GBP',
      ...(PLANS[k].priceGbp ? { category: 'subscription', description: `${PLANS[k].price}` } : {}),
    })),
  };
}

export function breadcrumbJsonLd(trail: Array<{ name: string; path: string }>): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((t, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: t.name,
      item: absoluteUrl(t.path),
    })),
  };
}
