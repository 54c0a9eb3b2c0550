import {
  Badge,
  Box,
  Button,
  Card,
  Grid,
  HStack,
  Heading,
  List,
  SimpleGrid,
  Stack,
  Text,
  Link,
} from '@chakra-ui/react';
import { PLANS, PLAN_KEYS, SALES_EMAIL, type PlanKey } from '@csv-mapper/domain';
import { PageLink as RouterLink } from '../../components/page-link';
import {
  ArrowLeftRightIcon,
  ArrowRightIcon,
  CheckIcon,
  FileTextIcon,
  FolderIcon,
  KeyIcon,
  ZapIcon,
  LayoutIcon,
} from '../../components/icons';
import { CardGrid, CompareTable, SecurityGrid, Steps } from '../../features/public/blocks';
import { CtaBand } from '../../features/public/cta-band';
import { FaqAccordion } from '../../features/public/faq-accordion';
import { HeroActions } from '../../features/public/guide-page';
import { PublicPage } from '../../features/public/public-page';
import { GUIDE_PAGES } from '../../features/public/public-routes';
import { Hero, Section } from '../../features/public/section';
import { appJsonLd, breadcrumbJsonLd, faqJsonLd, type Faq } from '../../features/public/seo-head';
import { FREE } from '../../features/public/plan-facts';

const SIGNUP = { tab: 'signup' };

export const LANDING_STEPS = [
  {
    title: 'Upload template',
    text: 'A CSV holding just the headers your target system expects — or pick a built-in Shopify or QuickBooks template.',
  },
  {
    title: 'Upload data file',
    text: 'The export you already have: headers plus rows, separated by commas, semicolons or tabs.',
  },
  {
    title: 'Map columns',
    text: 'Drag each data column onto its template column. Likely matches are suggested for you to confirm.',
  },
  {
    title: 'Download result',
    text: 'Get a CSV shaped exactly like the template, with dates, numbers and amounts normalised, ready to import.',
  },
];

const FEATURES = [
  {
    icon: <ArrowLeftRightIcon boxSize="5" />,
    title: 'Rename and reorder headers',
    text: 'Columns come out in the template’s order under the template’s names, whatever the export called them.',
  },
  {
    icon: <ZapIcon boxSize="5" />,
    title: 'Normalise values',
    text: 'Dates (31/01/2025 → 01/31/2025), decimal commas (1.234,56 → 1234.56), currency amounts, yes/no booleans, trimming and upper/lower case.',
  },
  {
    icon: <FileTextIcon boxSize="5" />,
    title: 'Debit + credit → one Amount',
    text: 'Bank exports with separate Debit and Credit columns become one signed Amount column, as accounting imports expect.',
  },
  {
    icon: <LayoutIcon boxSize="5" />,
    title: 'Reads messy CSVs',
    text: 'Comma, semicolon and tab delimiters; UTF-8 with or without a byte-order mark; quoted values with escaped quotes and line breaks.',
  },
  {
    icon: <FolderIcon boxSize="5" />,
    title: 'Saved mappings',
    text: 'Save a mapping once and reload it next month: the same supplier file converts in about 30 seconds.',
  },
  {
    icon: <KeyIcon boxSize="5" />,
    title: 'Big files and automation',
    text: 'Large files run as background jobs; Business plans add an API with Bearer keys and signed webhooks.',
  },
];

const FAQS: Faq[] = [
  {
    q: 'Do I need to install anything?',
    a: 'No. CSV Mapper runs in the browser on any device, and reads Excel workbooks (.xlsx) as well as CSV files.',
  },
  {
    q: 'Which delimiters and encodings can it read?',
    a: 'Comma, semicolon and tab (pipe too), detected automatically; UTF-8 with or without a byte-order mark; quoted or escaped values. The output is a standard comma-separated UTF-8 file.',
  },
  {
    q: 'Are my files stored?',
    a: 'No. Files are processed in memory, kept in a temporary cache for at most one hour so you can finish, and never written to disk. Only the mapping configurations you choose to save are kept.',
  },
  {
    q: 'What does the free plan include?',
    a: `Files up to ${FREE.fileSize}, ${FREE.rowsPerFile} rows per file, ${FREE.rowsPerMonth} rows per month and ${PLANS.free.features[3]}. No credit card is needed. Upgrading raises the row limits and lets you keep more reusable mappings.`,
  },
  {
    q: 'Can I cancel a paid plan?',
    a: 'Yes, at any time from your profile: you keep paid features until the end of the billing period. Paid plans come with a 30-day money-back guarantee.',
  },
];

const EXAMPLES = [
  {
    who: 'Bookkeeper',
    title: 'Bank statement into QuickBooks',
    before: 'Date 31/01/2025 · Details · Debit 45,00 · Credit (empty)',
    after: 'Date 01/31/2025 · Description · Amount -45.00',
    text: 'A UK bank’s export with day-first dates, decimal commas and split debit/credit columns becomes the three-column layout QuickBooks Online reads. Under 2 minutes the first time.',
  },
  {
    who: 'Online seller',
    title: 'Supplier catalogue into Shopify',
    before: 'ItemID · ProductName · CostPrice · StockQty',
    after: 'Handle · Title · Variant Price · Variant Inventory Qty',
    text: 'The supplier’s column names are mapped once onto Shopify’s product template and saved; each monthly price update is then a 30-second job.',
  },
  {
    who: 'Data team',
    title: 'Event sign-ups into a CRM',
    before: 'Full Name · E-mail · Company · Opt-in (yes/no)',
    after: 'Name · Email · Organization · Marketing Consent (TRUE/FALSE)',
    text: 'Headers renamed, e-mails lower-cased and yes/no answers turned into the TRUE/FALSE the CRM import wants.',
  },
];

function PlanCard({ planKey }: { planKey: PlanKey }) {
  const plan = PLANS[planKey];
  const popular = planKey === 'pro';
  return (
    <Card.Root
      aria-labelledby={`plan-${planKey}`}
      borderWidth={popular ? '2px' : '1px'}
      borderColor={popular ? 'blue.600' : undefined}
      position="relative"
      h="full"
    >
      {popular ? (
        <Badge
          colorPalette="blue"
          variant="solid"
          position="absolute"
          top="-3"
          left="50%"
          transform="translateX(-50%)"
        >
          Most popular
        </Badge>
      ) : null}
      <Card.Body gap="5">
        <Stack gap="1">
          <Heading as="h3" id={`plan-${planKey}`} size="lg">
            {plan.name}
          </Heading>
          <HStack align="baseline" gap="1">
            <Text fontSize="3xl" fontWeight="bold" letterSpacing="-0.02em">
              {plan.priceGbp === null ? 'Custom' : `£${plan.priceGbp}`}
            </Text>
            {plan.priceGbp === null ? null : <Text color="fg.muted">/month</Text>}
          </HStack>
        </Stack>
        <List.Root variant="plain" gap="2" fontSize="sm" flex="1">
          {plan.features.map((f) => (
            <List.Item key={f} alignItems="flex-start">
              <List.Indicator asChild mt="0.5">
                <CheckIcon boxSize="4" color="green.600" />
              </List.Indicator>
              {f}
            </List.Item>
          ))}
        </List.Root>
        {planKey === 'enterprise' ? (
          <Button asChild variant="outline">
            <a href={`mailto:${SALES_EMAIL}?subject=CSV%20Mapper%20Enterprise`}>Contact Sales</a>
          </Button>
        ) : (
          <Button asChild colorPalette="blue" variant={popular ? 'solid' : 'outline'}>
            <RouterLink to="/auth" state={SIGNUP}>
              {planKey === 'free' ? 'Get Started Free' : `Start with ${plan.name}`}
            </RouterLink>
          </Button>
        )}
      </Card.Body>
    </Card.Root>
  );
}

/** A small picture of the product: data columns pointing at template columns. */
function MappingPreview() {
  const pairs = [
    ['ItemID', 'Handle'],
    ['ProductName', 'Title'],
    ['CostPrice', 'Variant Price'],
    ['StockQty', 'Variant Inventory Qty'],
  ];
  return (
    <Card.Root shadow="xl" rounded="2xl" w="full" maxW="md" mx="auto">
      <Card.Body gap="3" p={{ base: '4', md: '6' }}>
        <Text srOnly>Example: four supplier columns mapped onto the Shopify product template.</Text>
        <HStack
          justify="space-between"
          fontSize="xs"
          fontWeight="semibold"
          color="fg.muted"
          textTransform="uppercase"
          aria-hidden="true"
        >
          <Text>Your data</Text>
          <Text>Shopify template</Text>
        </HStack>
        {pairs.map(([from, to]) => (
          <Grid key={from} templateColumns="1fr auto 1fr" gap="2" alignItems="center" aria-hidden="true">
            <Box bg="bg.muted" rounded="md" px="3" py="2" fontSize="sm" fontFamily="mono" truncate>
              {from}
            </Box>
            <ArrowRightIcon boxSize="4" color="blue.600" />
            <Box
              bg="blue.50"
              color="blue.800"
              rounded="md"
              px="3"
              py="2"
              fontSize="sm"
              fontWeight="medium"
              truncate
            >
              {to}
            </Box>
          </Grid>
        ))}
        <HStack gap="2" pt="1" color="green.700" fontSize="sm" aria-hidden="true">
          <CheckIcon boxSize="4" />
          <Text>4 of 4 columns mapped</Text>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

export function LandingPage() {
  return (
    <PublicPage
      seo={{
        title: 'CSV Mapper – Map and convert CSV files for QuickBooks, Shopify and your CRM',
        description:
          'Upload a template and your export, map columns by drag and drop, normalise dates, numbers and amounts, and download an import-ready CSV. First file free, no credit card needed.',
        path: '/',
        jsonLd: [appJsonLd('/'), faqJsonLd(FAQS), breadcrumbJsonLd([{ name: 'Home', path: '/' }])],
      }}
      topBar={{
        anchors: [
          { href: '#features', label: 'Features' },
          { href: '#how-it-works', label: 'How It Works' },
          { href: '#pricing', label: 'Pricing' },
          { href: '#faq', label: 'FAQ' },
        ],
      }}
      skipLink
      inPageFooterAnchors
    >
      <Hero
        eyebrow="For accountants, online sellers and data teams"
        title="Map any CSV to the format your software expects"
        lead="Upload the template your accounting, e-commerce or CRM system wants and the export you have, drag columns into place and download a file that imports first time. Set up once in about 5 minutes; every later conversion takes about 30 seconds."
        aside={<MappingPreview />}
      >
        <HeroActions
          signup={
            <>
              Get Started Free <ArrowRightIcon />
            </>
          }
          more={<a href="#how-it-works">See How It Works</a>}
        />
        <Text fontSize="sm" color="fg.muted">
          No credit card needed · First file free · Works on any device
        </Text>
      </Hero>

      <Section
        id="problem"
        title="Every system wants its own CSV"
        intro="The export you have almost never matches the import you need."
        bg="bg.subtle"
      >
        <CardGrid
          items={[
            {
              title: 'Wrong headers, wrong order',
              text: 'Your bank says “Details”, QuickBooks wants “Description”. Your supplier says “StockQty”, Shopify wants “Variant Inventory Qty”. One mismatch and the import rejects the file or drops the column.',
            },
            {
              title: 'Wrong formats',
              text: 'Day-first dates, decimal commas, “£1,234.50” and “(45.00)” amounts, Yes/No flags: each system reads them differently, and spreadsheets silently change them when you open the file.',
            },
            {
              title: 'The same fix every month',
              text: 'Renaming, reordering and reformatting by hand takes hours and invites mistakes. With a saved mapping, the 97% of the work that repeats is done for you.',
            },
          ]}
        />
      </Section>

      <Section
        id="features"
        title="Everything a messy export needs"
        intro="What CSV Mapper does to your file on the way through."
      >
        <CardGrid items={FEATURES} />
        <Text mt="6" textAlign="center" color="fg.muted" fontSize="sm">
          Built-in target templates: Shopify products, and accounting Customers, Vendors and Bank
          transactions. Supported delimiters: comma, semicolon, tab.
        </Text>
      </Section>

      <Section
        id="examples"
        title="Worked examples"
        intro="Three typical jobs, shown as the columns go in and come out. Illustrative examples, not customer quotes."
        bg="bg.subtle"
      >
        <SimpleGrid columns={{ base: 1, lg: 3 }} gap="5">
          {EXAMPLES.map((e) => (
            <Card.Root key={e.title}>
              <Card.Body gap="3">
                <Badge alignSelf="flex-start" colorPalette="blue" variant="subtle">
                  {e.who}
                </Badge>
                <Heading as="h3" size="md">
                  {e.title}
                </Heading>
                <Box fontSize="sm" fontFamily="mono" bg="bg.muted" rounded="md" p="3">
                  <Text fontWeight="semibold" fontFamily="body">
                    Before
                  </Text>
                  <Text>{e.before}</Text>
                  <Text fontWeight="semibold" fontFamily="body" mt="2">
                    After
                  </Text>
                  <Text>{e.after}</Text>
                </Box>
                <Text color="fg.muted" fontSize="sm">
                  {e.text}
                </Text>
              </Card.Body>
            </Card.Root>
          ))}
        </SimpleGrid>
      </Section>

      <Section
        id="how-it-works"
        title="How it works"
        intro="Four steps from the export you have to the import you need."
      >
        <Steps steps={LANDING_STEPS} />
      </Section>

      <Section
        id="pricing"
        title="Simple pricing"
        intro="Start free. Upgrade when your files grow. Prices in GBP per month."
        bg="bg.subtle"
      >
        <SimpleGrid columns={{ base: 1, md: 2, lg: 4 }} gap="5" pt="3">
          {PLAN_KEYS.map((k) => (
            <PlanCard key={k} planKey={k} />
          ))}
        </SimpleGrid>
        <Text textAlign="center" fontSize="sm" color="fg.muted" mt="6">
          30-day money-back guarantee on paid plans. Cancel any time; you keep access until the end of the
          billing period.
        </Text>
      </Section>

      <Section
        id="security"
        title="Security and privacy"
        intro="Your customer lists and bank lines are not our business."
      >
        <SecurityGrid />
      </Section>

      <Section
        id="faq"
        title="Frequently asked questions"
        intro="Quick answers before you start."
        bg="bg.subtle"
      >
        <FaqAccordion faqs={FAQS} />
      </Section>

      <Section
        id="guides"
        title="Guides for your import"
        intro="Step-by-step pages for the imports people ask about most."
      >
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
          {GUIDE_PAGES.map((g) => (
            <Link
              key={g.to}
              asChild
              fontWeight="medium"
              color="blue.700"
              borderWidth="1px"
              rounded="lg"
              p="4"
              bg="bg"
            >
              <RouterLink to={g.to}>
                {g.label} <ArrowRightIcon boxSize="4" />
              </RouterLink>
            </Link>
          ))}
        </SimpleGrid>
        <Box mt="8">
          <CompareTable
            caption="Which guide fits your job"
            head={['Your job', 'Guide']}
            rows={[
              ['Customer, vendor or bank imports into accounting software', 'QuickBooks CSV Import'],
              ['Product and inventory files for an online store', 'Shopify CSV Upload'],
              ['Any CSV reshaped for a CRM, marketing or reporting tool', 'CSV Converter Online'],
              ['Uploading and checking a CSV before you map it', 'CSV Uploader'],
            ]}
          />
        </Box>
      </Section>

      <CtaBand
        title="Your next import, without the spreadsheet surgery"
        text="Create a free account and map your first file in minutes."
      />
    </PublicPage>
  );
}
