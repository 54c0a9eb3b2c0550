import { Text } from '@chakra-ui/react';
import { ContentPage } from '../../components/content-page';

export function TermsPage() {
  return (
    <ContentPage
      meta={{
        title: 'Terms of Service',
        description: 'The terms that apply when you use CSV Mapper to map, reshape and download CSV files.',
        path: '/terms',
      }}
      heading="Terms of Service"
      eyebrow="Last updated January 24, 2025"
    >
      <Text>
        These terms govern your use of CSV Mapper: creating an account, uploading CSV files for processing in
        memory, saving mapping configurations and paying for a plan. By creating an account you accept them.
        The full text, covering acceptable use, data processing, billing, availability, liability and
        termination, is being prepared for this page.
      </Text>
    </ContentPage>
  );
}
