// A plain link for the public pages. They hydrate without react-router (it would put ~27 KB gzipped on
// every landing page), and each of them is prerendered, so moving between them is a normal page load.
// Drop-in for react-router's Link as used there: `to`, and `state={{ tab: 'signup' }}` for /auth, which
// becomes `?tab=signup` (the auth page reads both).
import { forwardRef, type AnchorHTMLAttributes } from 'react';

export interface PageLinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  to: string;
  state?: { tab?: string };
}

export const PageLink = forwardRef<HTMLAnchorElement, PageLinkProps>(function PageLink(
  { to, state, ...rest },
  ref,
) {
  const href = state?.tab ? `${to}${to.includes('?') ? '&' : '?'}tab=${encodeURIComponent(state.tab)}` : to;
  return <a ref={ref} href={href} {...rest} />;
});
