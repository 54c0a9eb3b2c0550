import { Box, Center, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Logo } from './logo';

/** A narrow, centred column with the logo on top: forgot/reset password and similar one-task pages. */
export function CenteredPage({ children }: { children: ReactNode }) {
  return (
    <Box minH="100dvh" bg="bg.subtle" px="4" py={{ base: '8', md: '16' }}>
      <Center>
        <Stack as="main" id="main" gap="6" w="full" maxW="md">
          <Center>
            <Logo />
          </Center>
          {children}
        </Stack>
      </Center>
    </Box>
  );
}
