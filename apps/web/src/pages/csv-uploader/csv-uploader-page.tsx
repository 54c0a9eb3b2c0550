import { Text } from '@chakra-ui/react';
import { ContentPage } from '../../components/content-page';
import { GuideCallToAction } from '../../components/guide-links';

export function CsvUploaderPage() {
  return (
    <ContentPage
      meta={{
        title: 'CSV Uploader',
        description:
          'Upload a CSV, map its columns onto your target template and download an import-ready file.',
        path: '/csv-uploader',
      }}
      heading="CSV Uploader"
    >
      <Text>
        Upload the CSV your system exported, upload the template the next system expects, and CSV Mapper
        reshapes the first into the second: columns renamed and reordered, dates, numbers and amounts
        normalised. Comma, semicolon and tab delimiters all work, and your first file is free.
      </Text>
      <GuideCallToAction current="/csv-uploader" />
    </ContentPage>
  );
}
