// Per-page head tags of the signed-in app and auth pages (spec §2). One implementation for every page:
// the public pages' SeoHead (title, description, absolute canonical, Open Graph + Twitter, robots).
import { SeoHead } from '../features/public/seo-head';

export interface PageMetaProps {
  title: string;
  description: string;
  /** Path of the canonical address, e.g. '/auth'. */
  path: string;
  robots?: string;
}

export function PageMeta(props: PageMetaProps) {
  return <SeoHead {...props} />;
}
