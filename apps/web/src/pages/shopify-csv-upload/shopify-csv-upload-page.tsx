import { Box, Card, Heading, SimpleGrid, Text } from '@chakra-ui/react';
import { CardGrid, CheckList, CompareTable, SecurityGrid, Steps } from '../../features/public/blocks';
import { CtaBand, GuideLinks } from '../../features/public/cta-band';
import { FaqAccordion } from '../../features/public/faq-accordion';
import { PublicPage } from '../../features/public/public-page';
import { Hero, Section } from '../../features/public/section';
import { guideJsonLd, HeroActions } from '../../features/public/guide-page';
import type { Faq } from '../../features/public/seo-head';
import { BUSINESS } from '../../features/public/plan-facts';

const PATH = '/shopify-csv-upload';

const FAQS: Faq[] = [
  {
    q: 'Which Shopify columns are required?',
    a: 'Handle and Title. Every other column of the built-in Shopify products template is optional, and Handle must still have a value on every row — rows of one product share the same Handle.',
  },
  {
    q: 'Can I update prices and stock for existing products?',
    a: 'Yes. Map your supplier’s ID to Handle so the rows match the products already in your store, then map the new price and quantity columns.',
  },
  {
    q: 'What about variants?',
    a: 'Shopify lists each variant on its own row with the same Handle. Map your option columns to Option1 Name and Option1 Value and your SKU to Variant SKU.',
  },
  {
    q: 'My supplier sends an Excel file. Does that work?',
    a: 'Yes: upload the .xlsx as it is and choose the sheet. CSV Mapper also reads comma, semicolon and tab separated files. An old .xls needs saving as .xlsx or CSV first.',
  },
  {
    q: 'Does CSV Mapper log in to my Shopify store?',
    a: 'No. You download the finished CSV and upload it in Shopify admin under Products → Import. No store credentials are needed.',
  },
];

const STEPS = [
  {
    title: 'Upload template',
    text: 'Pick the built-in Shopify products template, or upload Shopify’s own sample CSV.',
  },
  { title: 'Upload data file', text: 'Your supplier’s catalogue or your old platform’s export.' },
  {
    title: 'Map columns',
    text: 'Confirm the suggested matches and drag the rest: ItemID → Handle, CostPrice → Variant Price.',
  },
  {
    title: 'Save mapping',
    text: 'Give it the supplier’s name so next month’s file needs no mapping at all.',
  },
  { title: 'Download', text: 'Get the Shopify-ready CSV and import it under Products → Import.' },
];

export function ShopifyCsvUploadPage() {
  return (
    <PublicPage
      seo={{
        title: 'Shopify CSV Upload: convert supplier product files for Shopify',
        description:
          'Turn any supplier or marketplace product export into Shopify’s product CSV: Handle, Title, Variant Price and Inventory mapped by drag and drop, saved for next month. First file free.',
        path: PATH,
        jsonLd: guideJsonLd(PATH, 'Shopify CSV Upload', FAQS),
      }}
      topBar={{ ctaLabel: 'Try Free' }}
      skipLink
    >
      <Hero
        eyebrow="For online store sellers"
        title="Shopify CSV upload that works the first time"
        lead="Map any supplier catalogue or marketplace export onto Shopify’s product template, normalise prices and stock counts, and save the mapping so next month’s update takes about 30 seconds."
      >
        <HeroActions
          signup="Convert My Product File Free"
          more={<a href="#example">See an example mapping</a>}
        />
      </Hero>

      <Section
        id="why-fail"
        title="Why Shopify uploads fail"
        intro="The importer is strict, and supplier files are not written for it."
      >
        <CardGrid
          items={[
            {
              title: 'Missing Handle',
              text: 'Every row needs a Handle; supplier files have “ItemID” or “SKU” instead, so Shopify rejects the rows or creates duplicates.',
            },
            {
              title: 'Unknown column names',
              text: '“ProductName” and “StockQty” are ignored: Shopify only reads its own headers, such as Title and Variant Inventory Qty.',
            },
            {
              title: 'Prices in the wrong format',
              text: '“£12,50” or “12.50 GBP” is not a price to Shopify. Amounts must be plain numbers with a decimal point.',
            },
            {
              title: 'Yes/No instead of TRUE/FALSE',
              text: 'Published and other flags must be TRUE or FALSE; spreadsheets and suppliers write yes, Y or 1.',
            },
          ]}
          columns={4}
        />
      </Section>

      <Section
        id="examples"
        title="Worked examples"
        intro="Illustrative situations, not customer quotes."
        bg="bg.subtle"
      >
        <CardGrid
          items={[
            {
              title: 'Monthly supplier price list',
              text: 'One saved mapping per supplier; the new file is uploaded, the mapping reloaded and the Shopify CSV downloaded.',
            },
            {
              title: 'Moving from another platform',
              text: 'A product export from a previous store is mapped onto Handle, Title, Body (HTML), Vendor, Tags and the variant columns.',
            },
            {
              title: 'Stock-only updates',
              text: 'Handle plus Variant Inventory Qty, with quantities written as whole numbers.',
            },
          ]}
        />
      </Section>

      <Section
        id="how-it-works"
        title="How it works"
        intro="Five steps from supplier file to Shopify import."
      >
        <Steps steps={STEPS} />
      </Section>

      <Section
        id="example"
        title="Example mapping"
        intro="A supplier’s columns on the left, Shopify’s on the right."
        bg="bg.subtle"
      >
        <Box maxW="3xl" mx="auto">
          <CompareTable
            caption="Example mapping from a supplier file to the Shopify product template"
            head={['Supplier column', 'Shopify column', 'Transform']}
            rows={[
              ['ItemID', 'Handle', 'lower case'],
              ['ProductName', 'Title', '—'],
              ['CostPrice', 'Variant Price', 'amount, 2 decimals (“£12,50” → 12.50)'],
              ['StockQty', 'Variant Inventory Qty', 'number, 0 decimals'],
            ]}
          />
        </Box>
      </Section>

      <Section id="benefits" title="Benefits">
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="8" maxW="4xl" mx="auto">
          <CheckList
            items={[
              'Built-in Shopify products template with Handle and Title marked required',
              'Suggested matches for common supplier column names',
              'Prices, quantities and TRUE/FALSE flags normalised',
            ]}
          />
          <CheckList
            items={[
              'Saved mappings: set up once in about 5 minutes',
              `Files up to ${BUSINESS.fileSize} and ${BUSINESS.rowsPerFile} rows on ${BUSINESS.name}`,
              'Works in any browser, nothing to install',
            ]}
          />
        </SimpleGrid>
      </Section>

      <Section id="security" title="Security" bg="bg.subtle">
        <SecurityGrid />
      </Section>

      <Section id="faq" title="Shopify CSV upload FAQ">
        <FaqAccordion faqs={FAQS} />
      </Section>

      <Section
        id="case-study"
        title="Case study: 500 products a month"
        intro="An illustrative calculation, not a named customer."
        bg="bg.subtle"
      >
        <Card.Root maxW="3xl" mx="auto">
          <Card.Body gap="3">
            <Heading as="h3" size="md">
              From 3 hours to 5 minutes per update
            </Heading>
            <Text color="fg.muted">
              A shop re-imports about 500 products every month from its supplier’s spreadsheet. Renaming
              columns, fixing prices and rebuilding handles by hand takes around 3 hours. With a saved mapping
              the same update is an upload, a reload and a download: about 5 minutes. Across four supplier
              files a month that is roughly 11.5 hours back.
            </Text>
          </Card.Body>
        </Card.Root>
      </Section>

      <CtaBand
        title="Upload your next product file in minutes"
        text="Create a free account; your first file is free."
        label="Try Free"
      />
      <GuideLinks current={PATH} />
    </PublicPage>
  );
}
