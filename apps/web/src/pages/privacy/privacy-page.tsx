import { Text } from '@chakra-ui/react';
import { ContentPage } from '../../components/content-page';

export function PrivacyPage() {
  return (
    <ContentPage
      meta={{
        title: 'Privacy Policy',
        description: 'How CSV Mapper handles your account data and the CSV files you upload.',
        path: '/privacy',
      }}
      heading="Privacy Policy"
    >
      <Text>
        CSV Mapper keeps only what it needs to run your account: your username, email address, optional name,
        plan and the mapping configurations you choose to save. Uploaded files are processed in memory and
        removed shortly after processing; they are never written to a database. The full policy, including
        your rights and how to contact us, is being prepared for this page.
      </Text>
    </ContentPage>
  );
}
