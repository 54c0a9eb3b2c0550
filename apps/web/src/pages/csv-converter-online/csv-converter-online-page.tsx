import { SimpleGrid } from '@chakra-ui/react';
import { CardGrid, CheckList, CompareTable, SecurityGrid, Steps } from '../../features/public/blocks';
import { CtaBand, GuideLinks } from '../../features/public/cta-band';
import { FaqAccordion } from '../../features/public/faq-accordion';
import { PublicPage } from '../../features/public/public-page';
import { Hero, Section } from '../../features/public/section';
import { guideJsonLd, HeroActions } from '../../features/public/guide-page';
import type { Faq } from '../../features/public/seo-head';
import { BUSINESS, FREE, PRO } from '../../features/public/plan-facts';

const PATH = '/csv-converter-online';

const FAQS: Faq[] = [
  {
    q: 'What does “convert” mean here?',
    a: 'Reshaping one CSV into the layout another system expects: choosing, renaming and reordering columns and normalising dates, numbers, amounts and yes/no values. The output is always a CSV.',
  },
  {
    q: 'Can it convert Excel or JSON?',
    a: 'It reads CSV files and Excel workbooks (.xlsx) directly, and writes CSV. Legacy .xls and password-protected workbooks need saving as .xlsx or CSV first. JSON is not read.',
  },
  {
    q: 'Which delimiters are supported?',
    a: 'Comma, semicolon and tab (and pipe) are detected automatically. The output is comma-separated with CRLF line endings, as RFC 4180 describes.',
  },
  {
    q: 'Is there a file size limit?',
    a: `${FREE.fileSize} and ${FREE.rowsPerFile} rows per file on ${FREE.name}, ${PRO.fileSize} on ${PRO.name} and ${BUSINESS.fileSize} on ${BUSINESS.name}. Large files (above 50,000 rows by default) run as a background job you can follow on the page.`,
  },
  {
    q: 'Do I need an account?',
    a: 'Yes, a free one: it keeps your saved mappings and your monthly row allowance. No credit card is needed.',
  },
];

export function CsvConverterOnlinePage() {
  return (
    <PublicPage
      seo={{
        title: 'CSV Converter Online: reshape any CSV for your CRM, accounting or store',
        description:
          'Free online CSV converter: map columns onto a target template, normalise dates, numbers and amounts, and download a clean CSV. Reads comma, semicolon and tab files.',
        path: PATH,
        jsonLd: guideJsonLd(PATH, 'CSV Converter Online', FAQS),
      }}
      topBar={{ ctaLabel: 'Try Free' }}
    >
      <Hero
        eyebrow="For marketing, CRM and data teams"
        title="CSV converter online: from any export to the exact layout you need"
        lead="A smart converter does more than swap delimiters. Define the target columns once, map your file onto them by drag and drop, and download a CSV your CRM, accounting package or store imports without complaint."
      >
        <HeroActions signup="Convert a CSV Free" />
      </Hero>

      <Section id="how-it-works" title="How it works" intro="Four steps, all in your browser." bg="bg.subtle">
        <Steps
          steps={[
            { title: 'Upload CSV', text: 'The file you have, with headers in the first row.' },
            { title: 'Define Target', text: 'Upload a headers-only template or pick a built-in one.' },
            {
              title: 'Map Columns',
              text: 'Drag data columns onto target columns; add date, number or amount transforms.',
            },
            { title: 'Convert & Download', text: 'Get a clean CSV shaped exactly like the target.' },
          ]}
        />
      </Section>

      <Section id="comparison" title="Basic converter vs smart mapping">
        <CompareTable
          caption="Basic CSV converter compared with CSV Mapper"
          head={['Feature', 'Basic converter', 'CSV Mapper']}
          rows={[
            ['Changes delimiter', 'Yes', 'Yes (output is always comma-separated)'],
            ['Renames and reorders columns', 'No', 'Yes, to match the target template'],
            ['Dates, decimal commas, currency amounts', 'No', 'Normalised per column'],
            ['Debit + credit into one Amount', 'No', 'Yes'],
            ['Remembers your setup', 'No', 'Saved mappings'],
            ['Flags values it cannot read', 'No', 'Row, column and reason listed'],
          ]}
        />
      </Section>

      <Section id="formats" title="Supported formats" bg="bg.subtle">
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="8" maxW="4xl" mx="auto">
          <CheckList
            items={[
              'Delimiters: comma, semicolon, tab (pipe too), detected automatically',
              'Encodings: UTF-8 with or without a byte-order mark; UTF-16 and Windows-1252 detected',
              'Quoted values with escaped quotes and line breaks inside cells',
            ]}
          />
          <CheckList
            items={[
              'Output: RFC 4180 CSV, comma-separated, UTF-8 (optional BOM for Excel)',
              'Excel (.xlsx) read directly: choose the sheet; .xls: save as .xlsx or CSV',
              'Spreadsheet formula injection neutralised in the output',
            ]}
          />
        </SimpleGrid>
      </Section>

      <Section id="use-cases" title="Three common conversions">
        <CardGrid
          items={[
            {
              title: 'Marketing export to CRM',
              text: 'Event or newsletter sign-ups mapped onto the CRM’s contact import: names, lower-cased e-mails, TRUE/FALSE consent.',
            },
            {
              title: 'Finance data to accounting',
              text: 'Bank and card exports into the Date, Description, Amount layout accounting software imports.',
            },
            {
              title: 'Customer migration',
              text: 'Moving customers between systems: every field renamed and reordered, required fields checked before you import.',
            },
          ]}
        />
      </Section>

      <Section id="benefits" title="Benefits" bg="bg.subtle">
        <CardGrid
          items={[
            {
              title: 'Set up once',
              text: 'About 5 minutes for the first mapping; about 30 seconds for every later file.',
            },
            { title: 'No install', text: 'Runs in any modern browser on any device.' },
            { title: 'Free to start', text: 'No credit card. Your first file is free.' },
          ]}
        />
      </Section>

      <Section id="examples" title="Worked examples" intro="Illustrative conversions, not customer quotes.">
        <CompareTable
          caption="Example conversions"
          head={['Source', 'Target', 'What changes']}
          rows={[
            [
              'Full Name, E-mail, Opt-in',
              'Name, Email, Marketing Consent',
              'Renamed; e-mail lower-cased; yes/no → TRUE/FALSE',
            ],
            ['Datum, Betrag (1.234,56)', 'Date, Amount', 'DD.MM.YYYY → YYYY-MM-DD; 1.234,56 → 1234.56'],
            ['Company, Contact, Tel', 'Organization, Name, Phone', 'Renamed and reordered'],
          ]}
        />
      </Section>

      <Section id="security" title="Security" bg="bg.subtle">
        <SecurityGrid />
      </Section>

      <Section id="faq" title="CSV converter FAQ">
        <FaqAccordion faqs={FAQS} />
      </Section>

      <CtaBand
        title="Convert your first CSV free"
        text="Create an account and download a clean file in minutes."
        label="Try Free"
      />
      <GuideLinks current={PATH} />
    </PublicPage>
  );
}
