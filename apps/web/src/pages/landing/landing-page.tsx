import {
  Accordion,
  Badge,
  Box,
  Button,
  Card,
  Container,
  Flex,
  Grid,
  HStack,
  Heading,
  Link,
  List,
  SimpleGrid,
  Stack,
  Text,
} from '@chakra-ui/react';
import { PLANS, PLAN_KEYS, SALES_EMAIL, type PlanKey } from '@csv-mapper/domain';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  ArrowLeftRightIcon,
  ArrowRightIcon,
  CheckIcon,
  DownloadIcon,
  FileTextIcon,
  LayoutIcon,
  ShieldIcon,
  UploadIcon,
  ZapIcon,
} from '../../components/icons';
import { PageMeta } from '../../components/page-meta';
import { SiteFooter } from '../../components/site-footer';
import { SiteHeader } from '../../components/site-header';

const SIGNUP_STATE = { tab: 'signup' };

const STEPS = [
  {
    icon: <LayoutIcon boxSize="6" />,
    title: 'Upload template',
    text: 'A CSV with just the headers your target system expects.',
  },
  {
    icon: <UploadIcon boxSize="6" />,
    title: 'Upload data file',
    text: 'The export you have: headers plus rows, comma, semicolon or tab separated.',
  },
  {
    icon: <ArrowLeftRightIcon boxSize="6" />,
    title: 'Map columns',
    text: 'Drag each data column onto the template column it belongs to.',
  },
  {
    icon: <DownloadIcon boxSize="6" />,
    title: 'Download result',
    text: 'Get a clean CSV shaped exactly like the template, ready to import.',
  },
];

const FEATURES = [
  {
    icon: <ArrowLeftRightIcon boxSize="5" />,
    title: 'Rename and reorder',
    text: 'Headers renamed and columns reordered to match any import template.',
  },
  {
    icon: <ZapIcon boxSize="5" />,
    title: 'Normalise values',
    text: 'Dates, numbers, amounts and booleans converted; debit and credit combined into one Amount.',
  },
  {
    icon: <FileTextIcon boxSize="5" />,
    title: 'Reads messy CSVs',
    text: 'Comma, semicolon and tab delimiters, UTF-8 with or without BOM, quoted values.',
  },
  {
    icon: <ShieldIcon boxSize="5" />,
    title: 'Nothing stored',
    text: 'Files are processed in memory and never stored; only mappings you save are kept.',
  },
];

const FAQS = [
  {
    q: 'Do I need to install anything?',
    a: 'No. CSV Mapper runs in your browser on any device. Excel files need to be exported to CSV first.',
  },
  {
    q: 'Which delimiters and encodings are supported?',
    a: 'Comma, semicolon and tab delimiters; UTF-8 with or without a byte-order mark; quoted and escaped values.',
  },
  {
    q: 'Are my files stored?',
    a: 'No. Files are processed in memory and removed after processing. Only the mapping configurations you choose to save are kept.',
  },
  {
    q: 'What does the free plan include?',
    a: 'Files up to 1 MB, 10,000 rows per file, 50,000 rows per month and one saved mapping. No credit card needed.',
  },
  {
    q: 'Can I cancel a paid plan?',
    a: 'Yes, at any time: you keep access until the end of the billing period. Paid plans come with a 30-day money-back guarantee.',
  },
];

function Section({
  id,
  title,
  intro,
  children,
  bg,
}: {
  id: string;
  title: string;
  intro: string;
  children: ReactNode;
  bg?: string;
}) {
  return (
    <Box
      as="section"
      id={id}
      aria-labelledby={`${id}-title`}
      py={{ base: '14', md: '20' }}
      bg={bg}
      scrollMarginTop="16"
    >
      <Container maxW="6xl">
        <Stack gap="3" textAlign="center" maxW="2xl" mx="auto" mb={{ base: '8', md: '12' }}>
          <Heading as="h2" id={`${id}-title`} size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
            {title}
          </Heading>
          <Text color="fg.muted" fontSize={{ md: 'lg' }}>
            {intro}
          </Text>
        </Stack>
        {children}
      </Container>
    </Box>
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
    <Card.Root shadow="xl" rounded="2xl" aria-label="Example mapping" role="img" w="full" maxW="md" mx="auto">
      <Card.Body gap="3" p={{ base: '4', md: '6' }}>
        <HStack
          justify="space-between"
          fontSize="xs"
          fontWeight="semibold"
          color="fg.muted"
          textTransform="uppercase"
        >
          <Text>Your data</Text>
          <Text>Shopify template</Text>
        </HStack>
        {pairs.map(([from, to]) => (
          <Grid key={from} templateColumns="1fr auto 1fr" gap="2" alignItems="center">
            <Box bg="bg.muted" rounded="md" px="3" py="2" fontSize="sm" fontFamily="mono" truncate>
              {from}
            </Box>
            <ArrowRightIcon boxSize="4" color="blue.500" />
            <Box
              bg="blue.50"
              color="blue.800"
              rounded="md"
              px="3"
              py="2"
              fontSize="sm"
              fontWeight="medium"
              truncate
              _dark={{ bg: 'blue.950', color: 'blue.200' }}
            >
              {to}
            </Box>
          </Grid>
        ))}
        <HStack gap="2" pt="1" color="green.600" fontSize="sm">
          <CheckIcon boxSize="4" />
          <Text>4 of 4 columns mapped</Text>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

function PlanCard({ planKey }: { planKey: PlanKey }) {
  const plan = PLANS[planKey];
  const popular = planKey === 'pro';
  return (
    <Card.Root
      aria-labelledby={`plan-${planKey}`}
      borderWidth={popular ? '2px' : '1px'}
      borderColor={popular ? 'blue.500' : undefined}
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
                <CheckIcon boxSize="4" color="green.500" />
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
            <RouterLink to="/auth" state={SIGNUP_STATE}>
              {planKey === 'free' ? 'Get Started Free' : `Start with ${plan.name}`}
            </RouterLink>
          </Button>
        )}
      </Card.Body>
    </Card.Root>
  );
}

function Faq() {
  const [open, setOpen] = useState<string[]>([]);
  return (
    <Accordion.Root
      collapsible
      value={open}
      onValueChange={(e) => setOpen(e.value)}
      maxW="3xl"
      mx="auto"
      variant="enclosed"
    >
      {FAQS.map((f, i) => (
        <Accordion.Item key={f.q} value={`faq-${i}`}>
          <Accordion.ItemTrigger>
            <Text flex="1" fontWeight="medium" textAlign="start">
              {f.q}
            </Text>
            <Accordion.ItemIndicator />
          </Accordion.ItemTrigger>
          <Accordion.ItemContent>
            <Accordion.ItemBody color="fg.muted">{f.a}</Accordion.ItemBody>
          </Accordion.ItemContent>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  );
}

export function LandingPage() {
  return (
    <Flex direction="column" minH="100dvh">
      <PageMeta
        title="CSV Mapper"
        description="Map any CSV export onto the template your accounting, e-commerce or CRM system expects. Upload, map by drag and drop, download. First file free."
        path="/"
      />
      <Link
        href="#main"
        position="absolute"
        left="2"
        top="-12"
        zIndex="skipNav"
        bg="bg"
        px="3"
        py="2"
        rounded="md"
        shadow="md"
        _focus={{ top: '2' }}
      >
        Skip to content
      </Link>
      <SiteHeader
        anchors={[
          { href: '#features', label: 'Features' },
          { href: '#how-it-works', label: 'How It Works' },
          { href: '#pricing', label: 'Pricing' },
        ]}
      />
      <Box as="main" id="main" flex="1">
        {/* Hero */}
        <Box bgGradient="to-b" gradientFrom="blue.50" gradientTo="bg" _dark={{ gradientFrom: 'blue.950' }}>
          <Container maxW="6xl" py={{ base: '12', md: '20' }}>
            <Grid
              templateColumns={{ base: '1fr', lg: '1.1fr 1fr' }}
              gap={{ base: '10', lg: '16' }}
              alignItems="center"
            >
              <Stack gap="6">
                <Badge
                  colorPalette="blue"
                  variant="subtle"
                  alignSelf="flex-start"
                  size="lg"
                  rounded="full"
                  px="3"
                >
                  For accountants, online sellers and data teams
                </Badge>
                <Heading as="h1" size={{ base: '4xl', md: '5xl' }} lineHeight="1.1" letterSpacing="-0.03em">
                  Map any CSV to the format your software expects
                </Heading>
                <Text fontSize={{ base: 'lg', md: 'xl' }} color="fg.muted" maxW="xl">
                  Upload a template and your data, drag columns into place and download an import-ready file.
                  Set up once in 5 minutes; every later conversion takes about 30 seconds.
                </Text>
                <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
                  <Button asChild colorPalette="blue" size="xl">
                    <RouterLink to="/auth" state={SIGNUP_STATE}>
                      Get Started Free <ArrowRightIcon />
                    </RouterLink>
                  </Button>
                  <Button asChild variant="outline" size="xl">
                    <a href="#how-it-works">See How It Works</a>
                  </Button>
                </Stack>
                <Text fontSize="sm" color="fg.muted">
                  No credit card needed · First file free · Works on any device
                </Text>
              </Stack>
              <MappingPreview />
            </Grid>
          </Container>
        </Box>

        <Section
          id="features"
          title="Everything a messy export needs"
          intro="Stop fixing spreadsheets by hand before every import."
        >
          <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="5">
            {FEATURES.map((f) => (
              <Card.Root key={f.title} variant="outline">
                <Card.Body gap="3">
                  <Box
                    bg="blue.50"
                    color="blue.600"
                    rounded="lg"
                    p="2"
                    alignSelf="flex-start"
                    _dark={{ bg: 'blue.950' }}
                  >
                    {f.icon}
                  </Box>
                  <Heading as="h3" size="md">
                    {f.title}
                  </Heading>
                  <Text color="fg.muted" fontSize="sm">
                    {f.text}
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
          bg="bg.subtle"
        >
          <Grid
            as="ol"
            templateColumns={{ base: '1fr', sm: '1fr 1fr', lg: 'repeat(4, 1fr)' }}
            gap="5"
            listStyleType="none"
          >
            {STEPS.map((s, i) => (
              <Card.Root as="li" key={s.title}>
                <Card.Body gap="3">
                  <HStack justify="space-between">
                    <Box color="blue.600">{s.icon}</Box>
                    <Text fontSize="sm" fontWeight="bold" color="fg.subtle">
                      Step {i + 1}
                    </Text>
                  </HStack>
                  <Heading as="h3" size="md">
                    {s.title}
                  </Heading>
                  <Text color="fg.muted" fontSize="sm">
                    {s.text}
                  </Text>
                </Card.Body>
              </Card.Root>
            ))}
          </Grid>
        </Section>

        <Section
          id="pricing"
          title="Simple pricing"
          intro="Start free. Upgrade when your files grow. Prices in GBP per month."
        >
          <SimpleGrid columns={{ base: 1, md: 2, lg: 4 }} gap="5" pt="3">
            {PLAN_KEYS.map((k) => (
              <PlanCard key={k} planKey={k} />
            ))}
          </SimpleGrid>
          <Text textAlign="center" fontSize="sm" color="fg.muted" mt="6">
            30-day money-back guarantee on paid plans. Cancel any time.
          </Text>
        </Section>

        <Section
          id="faq"
          title="Frequently asked questions"
          intro="Quick answers before you start."
          bg="bg.subtle"
        >
          <Faq />
        </Section>

        <Box as="section" aria-labelledby="cta-title" py={{ base: '14', md: '20' }}>
          <Container maxW="4xl">
            <Stack
              gap="5"
              align="center"
              textAlign="center"
              bgGradient="to-br"
              gradientFrom="blue.600"
              gradientTo="blue.800"
              color="white"
              rounded="2xl"
              px={{ base: '6', md: '12' }}
              py={{ base: '10', md: '14' }}
            >
              <Heading as="h2" id="cta-title" size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
                Your next import, without the spreadsheet surgery
              </Heading>
              <Text color="whiteAlpha.900">Create a free account and map your first file in minutes.</Text>
              <Button asChild size="xl" bg="white" color="blue.700" _hover={{ bg: 'blue.50' }}>
                <RouterLink to="/auth" state={SIGNUP_STATE}>
                  Get Started Free
                </RouterLink>
              </Button>
            </Stack>
          </Container>
        </Box>
      </Box>
      <SiteFooter inPageAnchors />
    </Flex>
  );
}
