import { Text } from '@chakra-ui/react';
import { ContentPage } from '../../components/content-page';
import { GuideCallToAction } from '../../components/guide-links';

export function ShopifyCsvUploadPage() {
  return (
    <ContentPage
      meta={{
        title: 'Shopify CSV Upload',
        description:
          'Map supplier and inventory spreadsheets onto the Shopify product CSV template and upload first time.',
        path: '/shopify-csv-upload',
      }}
      heading="Shopify CSV Upload"
    >
      <Text>
        Shopify rejects product imports whose columns are missing or misnamed. CSV Mapper maps your supplier
        or inventory export onto the Shopify product template — ItemID to Handle, ProductName to Title,
        CostPrice to Variant Price, StockQty to Variant Inventory Qty — and saves the mapping so next month
        takes seconds.
      </Text>
      <GuideCallToAction current="/shopify-csv-upload" ctaLabel="Map My Product CSV" />
    </ContentPage>
  );
}
