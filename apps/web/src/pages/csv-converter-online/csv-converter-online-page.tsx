import { Text } from '@chakra-ui/react';
import { ContentPage } from '../../components/content-page';
import { GuideCallToAction } from '../../components/guide-links';

export function CsvConverterOnlinePage() {
  return (
    <ContentPage
      meta={{
        title: 'CSV Converter Online',
        description:
          'Convert a CSV from one layout to another in your browser: upload, define the target, map, download.',
        path: '/csv-converter-online',
      }}
      heading="CSV Converter Online"
    >
      <Text>
        Turn a marketing export into a CRM import, finance data into an accounting upload, or a customer list
        into the format of your new system. Upload your CSV, define the target columns, map one onto the
        other, then convert and download — no spreadsheet formulas and no software to install.
      </Text>
      <GuideCallToAction current="/csv-converter-online" />
    </ContentPage>
  );
}
