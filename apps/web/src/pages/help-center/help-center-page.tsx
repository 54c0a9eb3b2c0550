import { Button, Link, Text } from '@chakra-ui/react';
import { SUPPORT_EMAIL } from '@csv-mapper/domain';
import { Link as RouterLink } from 'react-router';
import { ContentPage } from '../../components/content-page';

export function HelpCenterPage() {
  return (
    <ContentPage
      meta={{
        title: 'Help Center',
        description: 'Get started with CSV Mapper, find answers to common questions and fix upload problems.',
        path: '/help-center',
      }}
      heading="Help Center"
    >
      <Text>
        Getting started takes four steps: upload a template CSV that holds only the headers your target system
        expects, upload your data CSV, drag each data column onto the template column it belongs to, and
        download the result. Files should be comma, semicolon or tab separated with the headers in the first
        row.
      </Text>
      <Text>
        Stuck? Write to{' '}
        <Link href={`mailto:${SUPPORT_EMAIL}`} color="blue.600">
          {SUPPORT_EMAIL}
        </Link>{' '}
        and we will help.
      </Text>
      <Button asChild colorPalette="blue" alignSelf="flex-start">
        <RouterLink to="/auth">Get Started</RouterLink>
      </Button>
    </ContentPage>
  );
}
