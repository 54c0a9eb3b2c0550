import { Text } from '@chakra-ui/react';
import { ContentPage } from '../../components/content-page';

export function DocumentationPage() {
  return (
    <ContentPage
      meta={{
        title: 'Documentation',
        description: 'CSV Mapper user guide, API reference and integrations.',
        path: '/documentation',
      }}
      heading="Documentation"
    >
      <Text>
        This guide explains how CSV Mapper turns an export from one system into the exact CSV layout another
        system imports: templates, data files, column mappings, saved mappings and plan limits. Business and
        Enterprise plans can also call the API with a bearer API key created on the Account Profile page; the
        API reference is published at /api/docs.
      </Text>
    </ContentPage>
  );
}
