import { Button, Card, Center, HStack, Heading, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { AlertIcon } from '../../components/icons';
import { PageMeta } from '../../components/page-meta';

export function NotFoundPage() {
  return (
    <Center minH="100dvh" bg="bg.subtle" px="4">
      <PageMeta
        title="Page not found"
        description="The page you asked for does not exist."
        path="/404"
        robots="noindex, nofollow"
      />
      <Card.Root maxW="md" w="full">
        <Card.Body gap="4">
          <HStack gap="3">
            <AlertIcon boxSize="8" color="red.500" />
            <Heading as="h1" size="2xl">
              404 Page Not Found
            </Heading>
          </HStack>
          <Text color="fg.muted">Did you forget to add the page to the router?</Text>
          <Button asChild colorPalette="blue" variant="outline" alignSelf="flex-start">
            <RouterLink to="/">Back to Home</RouterLink>
          </Button>
        </Card.Body>
      </Card.Root>
    </Center>
  );
}
