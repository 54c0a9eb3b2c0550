import { Link } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { LogoLabel } from './logo-label';

/** The product mark and name, linking to `to` (the home page unless told otherwise). */
export function Logo({ to = '/' }: { to?: string }) {
  return (
    <Link asChild _hover={{ textDecoration: 'none' }} aria-label="CSV Mapper home">
      <RouterLink to={to}>
        <LogoLabel />
      </RouterLink>
    </Link>
  );
}
