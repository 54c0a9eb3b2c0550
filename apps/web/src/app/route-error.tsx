import { Button, Center, Heading, Text, VStack } from '@chakra-ui/react';
import { useLayoutEffect } from 'react';
import { useRouteError } from 'react-router';
import { showApp } from '../lib/app-frame';

/** Shown when a page fails to render or its code cannot be downloaded (for example after a deploy). */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  // A page that came with a frame and failed: show this instead of the frame.
  useLayoutEffect(showApp, []);
  return (
    <Center minH="100dvh" px="6">
      <VStack gap="4" maxW="md" textAlign="center">
        <Heading size="xl">Something went wrong</Heading>
        <Text color="fg.muted">
          This page could not be shown. Reloading usually fixes it; if it keeps happening, contact support.
        </Text>
        <Button colorPalette="blue" onClick={() => window.location.reload()}>
          Reload page
        </Button>
      </VStack>
    </Center>
  );
}
