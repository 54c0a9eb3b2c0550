import { Link } from '@chakra-ui/react';
import { PageLink as RouterLink } from './page-link';
import { ArrowLeftIcon } from './icons';

export function BackToHomeLink() {
  return (
    <Link asChild color="blue.600" fontWeight="medium" fontSize="sm">
      <RouterLink to="/">
        <ArrowLeftIcon boxSize="4" /> Back to Home
      </RouterLink>
    </Link>
  );
}
