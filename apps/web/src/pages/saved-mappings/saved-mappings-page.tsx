// Placeholder until saved mappings land (their own issue); kept in its own folder so it can be replaced.
import { Button, Card, Heading, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { AppHeader } from '../../components/app-header';
import { AppPage } from '../../components/app-page';
import { PageMeta } from '../../components/page-meta';

export function SavedMappingsPage() {
  return (
    <AppPage
      header={
        <AppHeader
          back={{ to: '/dashboard', label: 'Back to Dashboard' }}
          menuItems={[
            { label: 'Dashboard', to: '/dashboard' },
            { label: 'Start New Mapping', to: '/csv-mapper' },
            { label: 'Saved Mappings', to: '/saved-mappings' },
            { label: 'Profile', to: '/profile' },
          ]}
        />
      }
    >
      <PageMeta
        title="Saved Mappings"
        description="Your saved mapping configurations."
        path="/saved-mappings"
        robots="noindex, nofollow"
      />
      <Heading as="h1" size="2xl" mb="6">
        Saved Mappings
      </Heading>
      <Card.Root maxW="2xl">
        <Card.Body gap="3">
          <Text fontWeight="semibold">Saved mappings are coming soon.</Text>
          <Text color="fg.muted">
            Mapping configurations you save in the mapper will be listed here, ready to reuse with your next
            file.
          </Text>
          <Button asChild variant="outline" alignSelf="flex-start">
            <RouterLink to="/dashboard">Back to Dashboard</RouterLink>
          </Button>
        </Card.Body>
      </Card.Root>
    </AppPage>
  );
}
