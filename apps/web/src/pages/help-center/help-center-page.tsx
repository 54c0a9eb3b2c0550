import { Button, Card, Heading, Link, List, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { SUPPORT_EMAIL } from '@csv-mapper/domain';
import { PageLink as RouterLink } from '../../components/page-link';
import { Steps } from '../../features/public/blocks';
import { ContentPage } from '../../features/public/content-page';
import { FaqAccordion } from '../../features/public/faq-accordion';
import { faqJsonLd, type Faq } from '../../features/public/seo-head';
import { FREE } from '../../features/public/plan-facts';

const FAQS: Faq[] = [
  {
    q: 'What is the difference between a template and a data file?',
    a: 'The template holds only the headers your target system expects (one row). The data file is your export: headers plus rows. The result has the template’s columns filled from the data.',
  },
  {
    q: 'Why can I not drag columns?',
    a: 'Mapping starts once both files are uploaded. Upload the template in step 1 and the data file in step 2, then the columns appear in step 3.',
  },
  {
    q: 'Can one data column fill two template columns?',
    a: 'No, each data column maps to one template column (the debit + credit transform is the exception: it reads two columns into one Amount). Dropping a column somewhere new moves it.',
  },
  {
    q: 'How do I reuse a mapping?',
    a: 'Click Save Mapping in step 3. Next time open Saved Mappings and choose Use Mapping, then upload the new data file.',
  },
  {
    q: 'Which file types are accepted?',
    a: 'CSV files (.csv or text/csv), separated by commas, semicolons, tabs or pipes, and Excel workbooks (.xlsx), where you choose the sheet. Title rows above the headers are detected, and you can pick the header row yourself. Legacy .xls and password-protected workbooks: save them as .xlsx or CSV first; other files are ignored.',
  },
  {
    q: 'What happens when I reach my monthly limit?',
    a: 'Processing stops at the allowance and the result contains the rows processed so far; a dialog offers an upgrade. Monthly usage resets on the 1st.',
  },
  {
    q: 'How do I cancel or change my plan?',
    a: 'Open your Profile. Upgrades start at once; downgrades and cancellations take effect at the end of the billing period.',
  },
];

const TROUBLESHOOTING: Array<{ group: string; items: Array<[string, string]> }> = [
  {
    group: 'Uploading files',
    items: [
      [
        'File too large',
        `Each plan has a file size limit (${FREE.fileSize} on ${FREE.name}). Split the file, remove unused columns, or upgrade.`,
      ],
      [
        'Invalid file format',
        'CSV files and Excel workbooks (.xlsx) are accepted. A legacy .xls or a password-protected workbook is refused: in Excel use File → Save As → Excel Workbook (.xlsx) or CSV UTF-8, without a password.',
      ],
      [
        'Upload fails repeatedly',
        'Check you are still logged in and the file opens in a text editor. If the problem persists, e-mail us the error message.',
      ],
    ],
  },
  {
    group: 'Mapping columns',
    items: [
      ['Cannot drag columns', 'Both files must be uploaded first; the board appears in step 3.'],
      [
        'Mapping does not save',
        'Log in again (sessions end after 30 minutes idle) and check your plan’s saved-mapping allowance.',
      ],
    ],
  },
  {
    group: 'Processing and downloads',
    items: [
      [
        'Processing is slow',
        'Files above 50,000 rows run as background jobs; you can follow the progress bar or come back later.',
      ],
      [
        'Download does not start',
        'Allow downloads for this site in your browser, or use the Download CSV button again.',
      ],
      ['Output is empty', 'Map at least one column, and check the data file has rows under its header.'],
    ],
  },
  {
    group: 'Account and billing',
    items: [
      ['Monthly limit reached', 'Usage resets on the 1st of each month; upgrading raises the limit at once.'],
      [
        'Payment issues',
        'Check the card in the checkout page; if a payment failed your plan returns to Free until you subscribe again.',
      ],
      [
        'Cannot access features',
        'API keys, webhooks and background jobs need Business or Enterprise; log out and in again after upgrading.',
      ],
    ],
  },
];

export function HelpCenterPage() {
  return (
    <ContentPage
      seo={{
        title: 'Help Center',
        description:
          'Get started with CSV Mapper in four steps, answers to common questions, and fixes for upload, mapping, processing and billing problems.',
        path: '/help-center',
        jsonLd: [faqJsonLd(FAQS)],
      }}
      heading="Help Center"
      maxW="5xl"
    >
      <Stack as="section" aria-labelledby="getting-started" gap="4">
        <Heading as="h2" id="getting-started" size="xl">
          Getting Started
        </Heading>
        <Steps
          steps={[
            {
              title: 'Upload template',
              text: 'A CSV with only the headers your target system expects, or a built-in template.',
            },
            { title: 'Upload data file', text: 'Your export with headers and rows.' },
            {
              title: 'Map columns',
              text: 'Drag each data column onto a template column; every template column must be mapped.',
            },
            {
              title: 'Download result',
              text: 'Generate the CSV and download it. Save the mapping to reuse it.',
            },
          ]}
        />
        <Button asChild colorPalette="blue" alignSelf="flex-start">
          <RouterLink to="/auth" state={{ tab: 'signup' }}>
            Get Started
          </RouterLink>
        </Button>
      </Stack>

      <Stack as="section" aria-labelledby="faq-title" gap="4">
        <Heading as="h2" id="faq-title" size="xl">
          Frequently Asked Questions
        </Heading>
        <FaqAccordion faqs={FAQS} idPrefix="help-faq" />
      </Stack>

      <Stack as="section" aria-labelledby="troubleshooting" gap="4">
        <Heading as="h2" id="troubleshooting" size="xl">
          Troubleshooting
        </Heading>
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="5">
          {TROUBLESHOOTING.map((g) => (
            <Card.Root key={g.group}>
              <Card.Body gap="3">
                <Heading as="h3" size="md">
                  {g.group}
                </Heading>
                <List.Root variant="plain" gap="3">
                  {g.items.map(([problem, fix]) => (
                    <List.Item key={problem} display="block" fontSize="sm">
                      <Text fontWeight="semibold">{problem}</Text>
                      <Text color="fg.muted">{fix}</Text>
                    </List.Item>
                  ))}
                </List.Root>
              </Card.Body>
            </Card.Root>
          ))}
        </SimpleGrid>
      </Stack>

      <Stack as="section" aria-labelledby="contact" gap="2">
        <Heading as="h2" id="contact" size="xl">
          Still stuck?
        </Heading>
        <Text color="fg.muted">
          Contact support at{' '}
          <Link href={`mailto:${SUPPORT_EMAIL}?subject=CSV%20Mapper%20help`} color="blue.700">
            {SUPPORT_EMAIL}
          </Link>{' '}
          with the file’s delimiter, row count and the message you saw. The{' '}
          <Link asChild color="blue.700">
            <RouterLink to="/documentation">documentation</RouterLink>
          </Link>{' '}
          covers the API and webhooks.
        </Text>
      </Stack>
    </ContentPage>
  );
}
