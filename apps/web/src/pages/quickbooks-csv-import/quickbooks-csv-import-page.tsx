import { Badge, Box, Card, Heading, List, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { BUILT_IN_TEMPLATES } from '@csv-mapper/domain';
import { CardGrid, CompareTable, SecurityGrid, Steps } from '../../features/public/blocks';
import { CtaBand, GuideLinks } from '../../features/public/cta-band';
import { FaqAccordion } from '../../features/public/faq-accordion';
import { PublicPage } from '../../features/public/public-page';
import { Hero, Section } from '../../features/public/section';
import { guideJsonLd, HeroActions } from '../../features/public/guide-page';
import type { Faq } from '../../features/public/seo-head';
import { FREE } from '../../features/public/plan-facts';

const PATH = '/quickbooks-csv-import';

const ERRORS = [
  [
    '“Date format is invalid” on bank lines',
    'Day-first dates (31/01/2025) are detected per column and written as MM/DD/YYYY.',
  ],
  [
    'Amounts import as 0 or are skipped',
    'Currency symbols, thousands separators, “(45.00)” and “45.00 DR” become plain signed numbers.',
  ],
  [
    'Separate Debit and Credit columns',
    'The debit + credit transform combines them into one Amount: money in positive, money out negative.',
  ],
  [
    '“Name is required” on customer rows',
    'Required template columns are marked Required and must be mapped before you can generate the file.',
  ],
  [
    'Columns land in the wrong fields',
    'Headers are renamed and reordered to exactly the template’s names and order.',
  ],
  [
    'File has a semicolon delimiter or odd encoding',
    'Comma, semicolon and tab files, UTF-8 with or without BOM, are read automatically; output is comma-separated UTF-8.',
  ],
];

const TUTORIAL = [
  {
    title: 'Pick the template',
    text: 'Choose the built-in Customers, Vendors or Bank transactions template, or upload the sample CSV QuickBooks gives you.',
  },
  {
    title: 'Upload your export',
    text: 'The CSV or Excel workbook (.xlsx) from your old system, CRM or bank.',
  },
  {
    title: 'Map the columns',
    text: 'Suggested matches appear automatically; drag the rest. Set the date or amount transform where needed.',
  },
  {
    title: 'Save the mapping',
    text: 'Name it (“Barclays current account”) so next month’s statement is a 30-second job.',
  },
  {
    title: 'Download and import',
    text: 'In QuickBooks Online use the import tool (Banking → Upload from file, or Sales/Expenses → Import) and pick the downloaded CSV.',
  },
];

const FAQS: Faq[] = [
  {
    q: 'Does this work with QuickBooks Online and QuickBooks Desktop?',
    a: 'QuickBooks Online imports CSV directly. QuickBooks Desktop imports lists from CSV or Excel through its import wizard, and transactions through IIF or bank files; CSV Mapper prepares CSV files only, it does not write IIF.',
  },
  {
    q: 'Which date format does QuickBooks expect?',
    a: 'The built-in bank template writes MM/DD/YYYY. Set a different output pattern (for example DD/MM/YYYY for a UK company file) in the date transform.',
  },
  {
    q: 'Is CSV Mapper connected to my QuickBooks account?',
    a: 'No. It never logs in to QuickBooks: you download the finished CSV and import it yourself, so no accounting credentials are shared.',
  },
  {
    q: 'What happens to rows a transform cannot read?',
    a: 'They are never silently changed: the value passes through unchanged and the row, column and reason are listed as a warning so you can fix the source.',
  },
  {
    q: 'How many transactions can I convert for free?',
    a: `The free plan handles files up to ${FREE.fileSize} and ${FREE.rowsPerFile} rows, and ${FREE.rowsPerMonth} rows a month — plenty for a year of bank lines for most small businesses.`,
  },
];

function RequirementCard({ id, title }: { id: string; title: string }) {
  const t = BUILT_IN_TEMPLATES.find((x) => x.id === id);
  if (!t) return null;
  const required = t.columns.filter((c) => c.required);
  const optional = t.columns.filter((c) => !c.required);
  return (
    <Card.Root>
      <Card.Body gap="3">
        <Heading as="h3" size="md">
          {title}
        </Heading>
        <Text fontSize="sm" fontWeight="semibold">
          Required
        </Text>
        <List.Root fontSize="sm" ps="5">
          {required.map((c) => (
            <List.Item key={c.name}>
              {c.name}
              {c.hint ? ` (${c.hint})` : ''}
            </List.Item>
          ))}
        </List.Root>
        <Text fontSize="sm" fontWeight="semibold">
          Optional
        </Text>
        <Text fontSize="sm" color="fg.muted">
          {optional.map((c) => c.name).join(', ')}
        </Text>
      </Card.Body>
    </Card.Root>
  );
}

export function QuickbooksCsvImportPage() {
  return (
    <PublicPage
      seo={{
        title: 'QuickBooks CSV Import: convert bank, customer and vendor CSVs',
        description:
          'Convert bank statements, customer and vendor lists into the CSV layout QuickBooks accepts: MM/DD/YYYY dates, one signed Amount, the right headers. 5-step guide, first file free.',
        path: PATH,
        jsonLd: guideJsonLd(PATH, 'QuickBooks CSV Import', FAQS),
      }}
      topBar={{ ctaLabel: 'Try Free' }}
      skipLink
    >
      <Hero
        eyebrow="For accountants and bookkeepers"
        title="QuickBooks CSV import without the rejected rows"
        lead="Turn any bank statement, customer list or vendor list into the CSV QuickBooks expects: the right headers, MM/DD/YYYY dates and one signed Amount column. A bank CSV takes under 2 minutes the first time and about 30 seconds every month after."
      >
        <HeroActions
          signup="Convert My First File Free"
          more={<a href="#tutorial">Read the 5-step guide</a>}
        />
      </Hero>

      <Section
        id="errors"
        title="Common import errors and the fix"
        intro="What goes wrong when a raw export meets QuickBooks, and what CSV Mapper does about it."
      >
        <CompareTable
          caption="Common QuickBooks import errors and how CSV Mapper solves them"
          head={['Error', 'Solution']}
          rows={ERRORS}
        />
      </Section>

      <Section id="tutorial" title="Import a CSV into QuickBooks in 5 steps" bg="bg.subtle">
        <Steps steps={TUTORIAL} />
      </Section>

      <Section
        id="editions"
        title="Online vs Desktop, CSV vs IIF"
        intro="Know which file your edition wants before you start."
      >
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="5">
          <Card.Root>
            <Card.Body gap="2">
              <Heading as="h3" size="md">
                QuickBooks Online vs Desktop
              </Heading>
              <Text fontSize="sm" color="fg.muted">
                QuickBooks Online reads CSV for bank transactions, customers, vendors, products and more.
                QuickBooks Desktop imports customer and vendor lists from CSV or Excel through its import
                wizard, while bank and journal transactions usually go in as bank files or IIF.
              </Text>
            </Card.Body>
          </Card.Root>
          <Card.Root>
            <Card.Body gap="2">
              <Heading as="h3" size="md">
                CSV vs IIF
              </Heading>
              <Text fontSize="sm" color="fg.muted">
                IIF (Intuit Interchange Format) is a tab-separated Desktop-only format with its own row
                keywords. CSV is plain rows and columns, understood by Online and by Desktop’s list imports.
                CSV Mapper produces CSV; it does not write IIF files.
              </Text>
            </Card.Body>
          </Card.Root>
        </SimpleGrid>
      </Section>

      <Section
        id="requirements"
        title="What each import needs"
        intro="The built-in accounting templates and their columns."
        bg="bg.subtle"
      >
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="5">
          <RequirementCard id="accounting-customers" title="Customer import" />
          <RequirementCard id="accounting-vendors" title="Vendor import" />
          <RequirementCard id="accounting-bank-transactions" title="Bank transactions" />
        </SimpleGrid>
      </Section>

      <Section id="comparison" title="Import wizard, spreadsheet or CSV Mapper?">
        <CompareTable
          caption="Comparison of the QuickBooks import wizard, a spreadsheet and CSV Mapper"
          head={['Feature', 'QuickBooks import wizard', 'Spreadsheet by hand', 'CSV Mapper']}
          rows={[
            [
              'Renames and reorders columns',
              'Per import, by hand',
              'By hand',
              'Automatically, from the template',
            ],
            [
              'Day-first dates',
              'Often rejected',
              'Formulas, easy to get wrong',
              'Detected per column and converted',
            ],
            [
              'Debit + credit → Amount',
              'Two-column option in some flows',
              'Formula per row',
              'One transform',
            ],
            ['Repeats next month', 'Start again', 'Start again', 'Reload the saved mapping'],
            ['Time for a repeat file', 'Every step again', 'Every step again', 'About 30 seconds'],
          ]}
        />
      </Section>

      <Section
        id="examples"
        title="Worked examples"
        intro="Illustrative situations our templates are built for — not customer quotes."
        bg="bg.subtle"
      >
        <CardGrid
          items={[
            {
              title: 'Month-end bank lines',
              text: 'A bookkeeper with three client bank accounts saves one mapping per bank; each statement becomes a QuickBooks file in under a minute.',
            },
            {
              title: 'CRM customers to accounting',
              text: 'A customer export with “Company”, “E-mail” and “Tel” columns maps onto Name, Email and Phone, with e-mails lower-cased.',
            },
            {
              title: 'Vendor list clean-up',
              text: '“Y/N” in a 1099 column becomes the Yes/No QuickBooks expects; missing contact names are flagged before import.',
            },
          ]}
        />
      </Section>

      <Section
        id="before-after"
        title="Before and after"
        intro="A UK bank export converted for QuickBooks Online."
      >
        <Stack gap="6">
          <Box>
            <Badge mb="2">Before: bank export</Badge>
            <CompareTable
              caption="Bank export before conversion"
              head={['Date', 'Details', 'Debit', 'Credit']}
              rows={[
                ['31/01/2025', 'CARD PAYMENT OFFICE SUPPLIES', '45,00', ''],
                ['01/02/2025', 'FASTER PAYMENT FROM J SMITH', '', '1.250,00'],
              ]}
            />
          </Box>
          <Box>
            <Badge mb="2" colorPalette="green">
              After: QuickBooks bank CSV
            </Badge>
            <CompareTable
              caption="QuickBooks bank CSV after conversion"
              head={['Date', 'Description', 'Amount']}
              rows={[
                ['01/31/2025', 'CARD PAYMENT OFFICE SUPPLIES', '-45.00'],
                ['02/01/2025', 'FASTER PAYMENT FROM J SMITH', '1250.00'],
              ]}
            />
          </Box>
        </Stack>
      </Section>

      <Section id="security" title="Security" intro="Financial data deserves care." bg="bg.subtle">
        <SecurityGrid />
      </Section>

      <Section id="faq" title="QuickBooks CSV import FAQ">
        <FaqAccordion faqs={FAQS} />
      </Section>

      <CtaBand
        title="Make this month’s import the last one you fix by hand"
        text="Create a free account and convert your first bank, customer or vendor file."
        label="Try Free"
      />
      <GuideLinks current={PATH} />
    </PublicPage>
  );
}
