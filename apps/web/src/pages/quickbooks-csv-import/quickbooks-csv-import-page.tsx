import { Text } from '@chakra-ui/react';
import { ContentPage } from '../../components/content-page';
import { GuideCallToAction } from '../../components/guide-links';

export function QuickbooksCsvImportPage() {
  return (
    <ContentPage
      meta={{
        title: 'QuickBooks CSV Import',
        description:
          'Prepare customers, vendors and bank transactions for QuickBooks import without import errors.',
        path: '/quickbooks-csv-import',
      }}
      heading="QuickBooks CSV Import"
    >
      <Text>
        QuickBooks imports fail on wrong date formats, split debit and credit columns and unexpected headers.
        CSV Mapper maps your bank, customer or vendor export onto the layout QuickBooks expects, converts
        dates to MM/DD/YYYY and combines debit and credit into one signed Amount.
      </Text>
      <GuideCallToAction current="/quickbooks-csv-import" ctaLabel="Prepare My QuickBooks CSV" />
    </ContentPage>
  );
}
