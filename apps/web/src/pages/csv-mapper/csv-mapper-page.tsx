// Placeholder until the mapper wizard lands (its own issue); kept in its own folder so it can be replaced.
import { Button, Card, Heading, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { AppHeader } from '../../components/app-header';
import { AppPage } from '../../components/app-page';
import { PageMeta } from '../../components/page-meta';

export function CsvMapperPage() {
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
        title="Map Your CSV Data"
        description="Upload a template and a data file, map the columns and download the result."
        path="/csv-mapper"
        robots="noindex, nofollow"
      />
      <Heading as="h1" size="2xl" mb="6">
        Map Your CSV Data
      </Heading>
      <Card.Root maxW="2xl">
        <Card.Body gap="3">
          <Text fontWeight="semibold">The mapping wizard is coming soon.</Text>
          <Text color="fg.muted">
            Here you will upload a template CSV and a data CSV, drag data columns onto template columns and
            download the reshaped file. This page is being built right now.
          </Text>
          <Button asChild variant="outline" alignSelf="flex-start">
            <RouterLink to="/dashboard">Back to Dashboard</RouterLink>
          </Button>
        </Card.Body>
      </Card.Root>
    </AppPage>
  );
}
