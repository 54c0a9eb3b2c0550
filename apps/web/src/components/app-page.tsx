import { Box, Container, Flex } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** The frame of signed-in pages: a header, then the page body on a subtle background. */
export function AppPage({ header, children }: { header: ReactNode; children: ReactNode }) {
  return (
    <Flex direction="column" minH="100dvh" bg="bg.subtle">
      {header}
      <Box as="main" id="main" flex="1">
        <Container maxW="6xl" py={{ base: '6', md: '10' }}>
          {children}
        </Container>
      </Box>
    </Flex>
  );
}
