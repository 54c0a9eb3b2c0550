import { Card, Heading, Link, SimpleGrid, Text } from '@chakra-ui/react';
import { PageLink as RouterLink } from '../../components/page-link';
import { CardGrid, CheckList, SecurityGrid } from '../../features/public/blocks';
import { CtaBand, GuideLinks } from '../../features/public/cta-band';
import { PublicPage } from '../../features/public/public-page';
import { GUIDE_PAGES } from '../../features/public/public-routes';
import { Hero, Section } from '../../features/public/section';
import { guideJsonLd, HeroActions } from '../../features/public/guide-page';

const PATH = '/csv-uploader';

export function CsvUploaderPage() {
  return (
    <PublicPage
      seo={{
        title: 'CSV Uploader: upload, check and reshape CSV files online',
        description:
          'Upload a CSV and see its columns, row count, delimiter and encoding at once, then map it onto any template and download the result. Free to start.',
        path: PATH,
        jsonLd: guideJsonLd(PATH, 'CSV Uploader'),
      }}
      topBar={{ ctaLabel: 'Try Free' }}
    >
      <Hero
        eyebrow="Online CSV uploader"
        title="Upload a CSV, see what is inside, make it fit"
        lead="Drop a CSV and CSV Mapper tells you its columns, how many rows it has, which delimiter and encoding it uses — then lets you map it onto the layout your next system needs."
      >
        <HeroActions signup="Try Free" more={<RouterLink to="/#pricing">See pricing</RouterLink>} />
      </Hero>

      <Section id="what-you-get" title="What happens when you upload" bg="bg.subtle">
        <CardGrid
          items={[
            {
              title: 'Instant summary',
              text: 'File name, column count, row count and the headers as chips, the moment the upload finishes.',
            },
            {
              title: 'Plan limits up front',
              text: 'The upload zone shows your plan’s file size; if a file has more rows than your plan allows you choose to proceed with the allowed rows or pick another file.',
            },
            {
              title: 'Large files in the background',
              text: 'Files above 50,000 rows are processed as a background job with a progress bar you can leave and come back to.',
            },
          ]}
        />
      </Section>

      <Section id="good-file" title="A CSV that uploads cleanly">
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="8" maxW="4xl" mx="auto">
          <CheckList
            items={[
              'Headers in the first row',
              'Comma, semicolon or tab delimiters',
              'UTF-8, with or without a byte-order mark',
            ]}
          />
          <CheckList
            items={[
              'A .csv file or an Excel workbook (.xlsx); legacy .xls: save as .xlsx or CSV',
              'Template files: headers only; data files: headers and rows',
              'Each data column maps to only one template column',
            ]}
          />
        </SimpleGrid>
      </Section>

      <Section
        id="guides"
        title="Where is your file going?"
        intro="Guides for the most common destinations."
        bg="bg.subtle"
      >
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="5">
          {GUIDE_PAGES.filter((g) => g.to !== PATH).map((g) => (
            <Card.Root key={g.to}>
              <Card.Body gap="2">
                <Heading as="h3" size="md">
                  <Link asChild color="blue.700">
                    <RouterLink to={g.to}>{g.label}</RouterLink>
                  </Link>
                </Heading>
                <Text fontSize="sm" color="fg.muted">
                  {g.to === '/quickbooks-csv-import'
                    ? 'Bank transactions, customers and vendors for accounting imports.'
                    : g.to === '/shopify-csv-upload'
                      ? 'Supplier product files into Shopify’s product template.'
                      : 'Any CSV reshaped for a CRM, marketing or reporting tool.'}
                </Text>
              </Card.Body>
            </Card.Root>
          ))}
        </SimpleGrid>
      </Section>

      <Section id="security" title="Security">
        <SecurityGrid />
      </Section>

      <CtaBand
        title="Upload your first CSV free"
        text="Create an account, no credit card needed."
        label="Try Free"
      />
      <GuideLinks current={PATH} />
    </PublicPage>
  );
}
