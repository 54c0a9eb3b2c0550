// Per-page head tags of the signed-in app and auth pages (spec §2). One implementation for every page:
// the public pages' SeoHead (title, description, absolute canonical, Open Graph + Twitter, robots).
export { SeoHead as PageMeta, type SeoHeadProps as PageMetaProps } from '../features/public/seo-head';
