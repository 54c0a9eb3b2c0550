import { Box, Button, Container, Heading, Link, Stack, Text } from '@chakra-ui/react';
import { PageLink as RouterLink } from '../../components/page-link';
import { GUIDE_PAGES } from './public-routes';

/** The closing call to action: every button goes to /auth (spec §2). */
export function CtaBand({
  title,
  text,
  label = 'Get Started Free',
  id = 'get-started',
}: {
  title: string;
  text: string;
  label?: string;
  id?: string;
}) {
  return (
    <Box as="section" aria-labelledby={`${id}-title`} py={{ base: '12', md: '16' }}>
      <Container maxW="4xl">
        <Stack
          gap="5"
          align="center"
          textAlign="center"
          bg="blue.700"
          color="white"
          rounded="2xl"
          px={{ base: '6', md: '12' }}
          py={{ base: '10', md: '14' }}
        >
          <Heading as="h2" id={`${id}-title`} size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
            {title}
          </Heading>
          <Text>{text}</Text>
          <Button asChild size="xl" bg="white" color="blue.800" _hover={{ bg: 'blue.50' }}>
            <RouterLink to="/auth" state={{ tab: 'signup' }}>
              {label}
            </RouterLink>
          </Button>
          <Text fontSize="sm">No credit card needed · First file free · Works on any device</Text>
        </Stack>
      </Container>
    </Box>
  );
}

/** Links between the search-landing pages (and back to the home page). */
export function GuideLinks({ current }: { current: string }) {
  return (
    <Box as="nav" aria-label="More guides" py="8" borderTopWidth="1px">
      <Container maxW="6xl">
        <Stack
          direction={{ base: 'column', md: 'row' }}
          gap={{ base: '2', md: '6' }}
          align={{ md: 'center' }}
        >
          <Text fontWeight="semibold" fontSize="sm">
            More guides:
          </Text>
          <Link asChild color="blue.700" fontSize="sm">
            <RouterLink to="/">CSV Mapper home</RouterLink>
          </Link>
          {GUIDE_PAGES.filter((g) => g.to !== current).map((g) => (
            <Link key={g.to} asChild color="blue.700" fontSize="sm">
              <RouterLink to={g.to}>{g.label}</RouterLink>
            </Link>
          ))}
        </Stack>
      </Container>
    </Box>
  );
}
