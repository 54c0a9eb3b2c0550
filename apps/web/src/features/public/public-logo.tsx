import { Link } from '@chakra-ui/react';
import { LogoLabel } from '../../components/logo-label';
import { PageLink } from '../../components/page-link';

/** The logo on public pages: a plain link home (public pages hydrate without the router). */
export function PublicLogo() {
  return (
    <Link asChild _hover={{ textDecoration: 'none' }} aria-label="CSV Mapper home">
      <PageLink to="/">
        <LogoLabel />
      </PageLink>
    </Link>
  );
}
