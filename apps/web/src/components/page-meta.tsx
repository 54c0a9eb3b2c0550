// Per-page head tags (spec §2): title, description, canonical address, social-sharing tags and robots.
// React 19 hoists <title>, <meta> and <link> rendered anywhere into <head>.

export interface PageMetaProps {
  title: string;
  description: string;
  /** Path of the canonical address, e.g. '/auth'. */
  path: string;
  robots?: string;
}

const SITE_NAME = 'CSV Mapper';

export function PageMeta({ title, description, path, robots = 'index, follow' }: PageMetaProps) {
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const url = `${origin}${path}`;
  const fullTitle = title === SITE_NAME ? title : `${title} | ${SITE_NAME}`;
  const image = `${origin}/og-image.png`;
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
      <meta property="og:image:width" content="1200" />
      <meta property="og:image:height" content="630" />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={fullTitle} />
      <meta name="twitter:description" content={description} />
      <meta name="twitter:image" content={image} />
    </>
  );
}
