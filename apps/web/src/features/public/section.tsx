import { Box, Container, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface SectionProps {
  id: string;
  title: string;
  intro?: string;
  children: ReactNode;
  bg?: string;
  maxW?: string;
}

/** A titled page section; its heading labels it, its id is the in-page anchor. */
export function Section({ id, title, intro, children, bg, maxW = '6xl' }: SectionProps) {
  return (
    <Box
      as="section"
      id={id}
      aria-labelledby={`${id}-title`}
      py={{ base: '12', md: '16' }}
      bg={bg}
      scrollMarginTop="16"
    >
      <Container maxW={maxW}>
        <Stack gap="3" textAlign="center" maxW="2xl" mx="auto" mb={{ base: '8', md: '10' }}>
          <Heading as="h2" id={`${id}-title`} size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
            {title}
          </Heading>
          {intro ? (
            <Text color="fg.muted" fontSize={{ md: 'lg' }}>
              {intro}
            </Text>
          ) : null}
        </Stack>
        {children}
      </Container>
    </Box>
  );
}

/** The hero block at the top of a public page: eyebrow, h1, lead and actions. */
export function Hero({
  eyebrow,
  title,
  lead,
  children,
  aside,
}: {
  eyebrow?: string;
  title: string;
  lead: string;
  children?: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <Box bgGradient="to-b" gradientFrom="blue.50" gradientTo="bg">
      <Container maxW="6xl" py={{ base: '10', md: '16' }}>
        <Box
          display="grid"
          gridTemplateColumns={{ base: '1fr', lg: aside ? '1.1fr 1fr' : '1fr' }}
          gap={{ base: '10', lg: '14' }}
          alignItems="center"
        >
          <Stack gap="5" maxW="3xl">
            {eyebrow ? (
              <Text
                color="blue.700"
                fontWeight="semibold"
                fontSize="sm"
                textTransform="uppercase"
                letterSpacing="wider"
              >
                {eyebrow}
              </Text>
            ) : null}
            <Heading as="h1" size={{ base: '3xl', md: '5xl' }} lineHeight="1.1" letterSpacing="-0.03em">
              {title}
            </Heading>
            <Text fontSize={{ base: 'lg', md: 'xl' }} color="fg.muted">
              {lead}
            </Text>
            {children}
          </Stack>
          {aside}
        </Box>
      </Container>
    </Box>
  );
}
