import { Box, Card, Code, HStack, Heading, Link, List, Stack, Table, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { PageLink as RouterLink } from '../../components/page-link';
// The API reference is read from the document the api serves (/api/docs/openapi.json), never imported.
import { EndpointTable } from '../../features/api-reference/components/endpoint-table';
import { ContentPage } from '../../features/public/content-page';
import {
  HMAC_RULE,
  PAYLOAD_EXAMPLE,
  RECEIVER_RUN,
  RECEIVER_SOURCE,
  SAMPLE_FILES,
  SAMPLE_RESULT,
  SETUP_COMMAND,
  WALKTHROUGH_STEPS,
  WALKTHROUGH_VARIABLES,
} from './api-walkthrough';

/** The payload's data fields, in the order the api writes them. */
const PAYLOAD_FIELDS: [string, string][] = [
  ['jobId', 'The job, as returned by POST /api/process and listed by GET /api/jobs.'],
  ['state', 'completed, failed or cancelled (matches the event type).'],
  ['batchId', 'null (reserved for batches).'],
  ['mappingId, mappingName', 'The saved mapping the job used (mappingId in the request), else null.'],
  ['dataFilename, templateFilename', 'The uploaded files’ names.'],
  [
    'rowsRead, rowsWritten, warningCount',
    'Rows read from the data file, rows written, values passed through.',
  ],
  [
    'controlTotals',
    'Per amount/number column: column, kind, sourceColumns, sourceTotal, outputTotal (decimal strings), values, unreadable.',
  ],
  [
    'resultUrl, resultExpiresAt',
    'Absolute download URL (send your API key) and when it expires; completed only.',
  ],
  ['finishedAt', 'When the job ended.'],
  ['error', '{ code, message } for job.failed, else null.'],
];

const RETRIES = '5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (each ±20 %), about 28 hours in all';

function CodeBlock({ label, children }: { label: string; children: string }) {
  return (
    <Box
      as="pre"
      aria-label={label}
      tabIndex={0}
      bg="gray.900"
      color="gray.100"
      p="4"
      rounded="lg"
      overflowX="auto"
      fontSize="xs"
      lineHeight="tall"
    >
      <code>{children}</code>
    </Box>
  );
}

function DocSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Stack as="section" id={id} aria-labelledby={`${id}-title`} gap="3" scrollMarginTop="20">
      <Heading as="h2" id={`${id}-title`} size="xl">
        {title}
      </Heading>
      {children}
    </Stack>
  );
}

export function DocumentationPage() {
  return (
    <ContentPage
      seo={{
        title: 'Documentation: user guide, API reference and webhooks',
        description:
          'How to map CSV files with CSV Mapper, the REST API with Bearer API keys (upload, process, poll jobs, download), signed webhooks and integrations.',
        path: '/documentation',
      }}
      heading="Documentation"
      eyebrow="User guide, API reference, webhooks and integrations"
      maxW="5xl"
    >
      <Box as="nav" aria-label="On this page">
        <HStack gap="4" wrap="wrap" fontSize="sm">
          {[
            ['#user-guide', 'User guide'],
            ['#api-reference', 'API reference'],
            ['#authentication', 'Authentication'],
            ['#quick-start', 'curl quick start'],
            ['#webhooks', 'Webhooks'],
            ['#integrations', 'Integrations'],
          ].map(([href, label]) => (
            <Link key={href} href={href} color="blue.700">
              {label}
            </Link>
          ))}
        </HStack>
      </Box>

      <DocSection id="user-guide" title="User guide">
        <List.Root as="ol" gap="2" ps="5" color="fg.muted">
          <List.Item>
            <strong>Upload a template</strong>: a CSV whose first row holds the headers your target system
            expects, or pick a built-in template (Shopify products; accounting Customers, Vendors, Bank
            transactions).
          </List.Item>
          <List.Item>
            <strong>Upload the data file</strong>: headers plus rows; comma, semicolon or tab separated, UTF-8
            with or without BOM. You see its column and row counts at once.
          </List.Item>
          <List.Item>
            <strong>Map columns</strong>: drag data columns onto template columns. Suggested matches are
            pre-filled for you to confirm. Add a transform per column: date (e.g. DD/MM/YYYY → MM/DD/YYYY),
            number (decimal comma), amount (currency symbols, brackets, CR/DR), boolean, debit + credit → one
            signed amount, constant value, trim, upper, lower. Date order and decimal separator are detected
            per column; when a column reads either way (every day 12 or less) the preview says how it was read
            (day-first when the amounts are in £ or €), and the card’s “How dates are read” changes it.
          </List.Item>
          <List.Item>
            <strong>Generate and download</strong>: the CSV is built with the template’s columns in order.
            Values a transform cannot read are passed through unchanged and listed as warnings. Save the
            mapping to reuse it from Saved Mappings.
          </List.Item>
          <List.Item>
            <strong>Next month</strong>: upload the new export and the mapper offers the saved mapping whose
            source it is. When the bank renamed or added columns it says so before you run (“'Amount' is now
            'Amount (EUR)'; a new column 'Category'”) and fills in the mapping adapted to the new names; a
            column it cannot find again is named, and its template column is left for you to map. When you
            save a mapping you choose once what later runs do with rows an earlier run already exported — a
            statement that repeats the last days of the previous one: <em>flag</em> them (the default: written
            and marked in the review), <em>skip</em> them (left out, not counted against your monthly rows) or{' '}
            <em>keep</em> them. The result says which ones (“2 rows were exported on 3 Oct 2026 by ana”), and
            Saved Mappings lists each mapping’s last runs.
          </List.Item>
        </List.Root>
        <Text color="fg.muted">
          Files above 50,000 rows run as background jobs; their progress shows on the page and on the
          dashboard. Help with common problems is in the{' '}
          <Link asChild color="blue.700">
            <RouterLink to="/help-center">Help Center</RouterLink>
          </Link>
          .
        </Text>
      </DocSection>

      <DocSection id="api-reference" title="API reference">
        <Text color="fg.muted" fontSize="sm">
          Machine-readable document: <Code>/api/docs/openapi.json</Code>. Every error answers JSON{' '}
          <Code>{'{ "error": "…", "code": "…" }'}</Code> with a 4xx or 5xx status.
        </Text>
        <EndpointTable />
      </DocSection>

      <DocSection id="authentication" title="Authentication: Bearer API keys">
        <Text color="fg.muted">
          API access is part of the Business and Enterprise plans. Create a key on your Profile page under API
          keys; it starts with <Code>csvm_</Code> and is shown once, so store it in your secret manager. Send
          it on every request as <Code>Authorization: Bearer csvm_…</Code>. Keys in the query string are
          refused. Revoking a key takes effect on the next request. Each key may make 600 requests per minute;
          above that the API answers 429.
        </Text>
      </DocSection>

      <DocSection id="quick-start" title="curl quick start: upload → process → poll → download">
        <Text color="fg.muted">
          From an API key to a verified webhook, in one terminal with <Code>curl</Code> and <Code>jq</Code>.
          Every command below is run as shown by our test suite on each change, so you can paste them as they
          are. First set three variables:
        </Text>
        <CodeBlock label="Variables the commands use">{SETUP_COMMAND}</CodeBlock>
        <List.Root gap="1" ps="5" color="fg.muted" fontSize="sm">
          {WALKTHROUGH_VARIABLES.map((v) => (
            <List.Item key={v.name}>
              <Code>${v.name}</Code>: {v.explanation}
            </List.Item>
          ))}
        </List.Root>
        <Text color="fg.muted">
          To follow along, save these two files in the directory you run the commands from:
        </Text>
        <Stack direction={{ base: 'column', md: 'row' }} gap="3">
          {Object.entries(SAMPLE_FILES).map(([name, content]) => (
            <Stack key={name} gap="1" flex="1" minW="0">
              <Text fontSize="sm" fontWeight="medium">
                {name}
              </Text>
              <CodeBlock label={`Sample ${name}`}>{content}</CodeBlock>
            </Stack>
          ))}
        </Stack>
        <Stack as="ol" aria-label="curl example of the API flow" gap="5" listStyleType="none" ps="0">
          {WALKTHROUGH_STEPS.map((step, i) => (
            <Stack as="li" key={step.id} id={`step-${step.id}`} gap="2" scrollMarginTop="20">
              <Heading as="h3" size="md">
                {i + 1}. {step.title}
              </Heading>
              <Text color="fg.muted" fontSize="sm">
                {step.explanation}
              </Text>
              <CodeBlock label={`Step ${i + 1}: ${step.title}`}>{step.command}</CodeBlock>
            </Stack>
          ))}
        </Stack>
        <Text color="fg.muted" fontSize="sm">
          With the sample files, <Code>result.csv</Code> holds (its lines end like the template's, with LF):
        </Text>
        <CodeBlock label="The resulting result.csv">{SAMPLE_RESULT}</CodeBlock>
        <Text color="fg.muted" fontSize="sm">
          Small files processed without <Code>async</Code> answer <Code>200</Code> with <Code>csvData</Code>{' '}
          directly. Save a mapping for reuse with <Code>PUT /api/mappings/{'{id}'}</Code> and run it later
          with <Code>{'"mappingId"'}</Code>.
        </Text>
        <Heading as="h3" size="md" id="bulk-uploads" scrollMarginTop="20">
          Bulk uploads (Business and Enterprise)
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          Upload up to 20 data files as above, then <Code>POST /api/batches</Code> with{' '}
          <Code>{'{ templateFileId, dataFileIds, mappings | mappingId }'}</Code>. The answer (<Code>202</Code>
          ) lists one job per file that fits the mapping and, under <Code>rejected</Code>, each file that does
          not with the reason. The rows of every file are checked against your monthly quota before anything
          runs. Poll <Code>GET /api/batches/{'{id}'}</Code> for each file’s progress and the batch total, then
          download every result at once from <Code>GET /api/batches/{'{id}'}/result.zip</Code>.
        </Text>
        <Heading as="h3" size="md" id="monthly-runs" scrollMarginTop="20">
          Monthly runs of a saved mapping
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          <Code>POST /api/mappings/{'{id}'}/runs</Code> runs a saved mapping on a file in one call (multipart{' '}
          <Code>file</Code>, optional <Code>templateFileId</Code> of an uploaded template and{' '}
          <Code>async</Code>) and answers like <Code>POST /api/process</Code>;{' '}
          <Code>GET /api/mappings/{'{id}'}/runs</Code> lists its runs (who, when, rows read, written and
          already exported). Rows an earlier run exported are skipped, flagged or kept as the mapping’s{' '}
          <Code>duplicates</Code> says, and counted in <Code>totals.rowsAlreadyExported</Code> with the runs
          they came from in <Code>totals.alreadyExportedFrom</Code>. A file without a column the mapping reads
          answers <Code>422 SOURCE_CHANGED</Code> naming them. To see a changed source before you run, upload
          the file: each of the upload answer’s <Code>matchingMappings</Code> carries{' '}
          <Code>{'changes: { added, removed, renamed: [{ from, to }] }'}</Code>, the columns it can no longer
          find in <Code>missingColumns</Code> and, when something changed, the saved pairs with renamed
          columns substituted in <Code>adaptedMapping</Code> — send those as <Code>mappings</Code> with{' '}
          <Code>mappingId</Code> to <Code>POST /api/process</Code>.
        </Text>
        <CodeBlock label="Run a saved mapping on next month's file">{`curl -sS -H "Authorization: Bearer $CSVM_KEY" \\
  -F "file=@statement-november.csv" \\
  "$CSVM_URL/api/mappings/$MAPPING_ID/runs" | jq '.totals | {rowsWritten, rowsAlreadyExported, alreadyExportedFrom}'`}</CodeBlock>
      </DocSection>

      <DocSection id="webhooks" title="Webhooks">
        <Text color="fg.muted">
          Business and Enterprise accounts register endpoints on the Profile page (Webhooks) or with{' '}
          <Code>POST /api/webhooks</Code>. The events are <Code>job.completed</Code>, <Code>job.failed</Code>,{' '}
          <Code>job.cancelled</Code> and, for bulk uploads, <Code>batch.completed</Code> once every file of a
          batch has finished (each file also sends its own job event, with <Code>batchId</Code>); a new
          endpoint gets all four, and <Code>PATCH /api/webhooks/{'{id}'}</Code> with{' '}
          <Code>{'{ "events": [...] }'}</Code> chooses fewer. A <Code>test</Code> event is sent only when you
          ask for one. Each delivery is a JSON <Code>{'{ type, timestamp, data }'}</Code> signed the Standard
          Webhooks way with the endpoint’s secret.
        </Text>

        <Heading as="h3" size="md" id="webhook-receiver" scrollMarginTop="20">
          Receive and verify (Node.js)
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          Save as <Code>receiver.js</Code> where <Code>$WEBHOOK_URL</Code> reaches it, then run it with the
          secret from step 1:
        </Text>
        <CodeBlock label="Run the webhook receiver">{RECEIVER_RUN}</CodeBlock>
        <CodeBlock label="Webhook signature verification in Node.js">{RECEIVER_SOURCE}</CodeBlock>

        <Heading as="h3" size="md" id="webhook-payload" scrollMarginTop="20">
          The payload
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          What the receiver prints for the walk-through’s job (the <Code>test</Code> event carries{' '}
          <Code>{'{ "message": "Test event from CSV Mapper" }'}</Code> as its data):
        </Text>
        <CodeBlock label="Example job.completed payload">{PAYLOAD_EXAMPLE}</CodeBlock>
        <Table.ScrollArea
          borderWidth="1px"
          rounded="lg"
          tabIndex={0}
          role="region"
          aria-label="Payload fields"
        >
          <Table.Root size="sm" css={{ '& td': { whiteSpace: 'normal' } }}>
            <Table.Caption srOnly>Fields of data in job events</Table.Caption>
            <Table.Header>
              <Table.Row bg="bg.muted">
                <Table.ColumnHeader scope="col">data field</Table.ColumnHeader>
                <Table.ColumnHeader scope="col">Meaning</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {PAYLOAD_FIELDS.map(([field, meaning]) => (
                <Table.Row key={field}>
                  <Table.Cell>
                    <Code>{field}</Code>
                  </Table.Cell>
                  <Table.Cell fontSize="sm" color="fg.muted">
                    {meaning}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>

        <Heading as="h3" size="md" id="webhook-signature-rule" scrollMarginTop="20">
          Verify in any other language
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          Libraries for most languages are listed at standardwebhooks.com. Without one, the rule is: compute
          an HMAC-SHA256 with the base64-decoded secret (the part after <Code>whsec_</Code>) over{' '}
          <Code>{'${webhook-id}.${webhook-timestamp}.${body}'}</Code> (the raw body, byte for byte), base64 it
          and compare it in constant time with each space-separated <Code>v1,</Code> entry of{' '}
          <Code>webhook-signature</Code>; refuse timestamps more than 5 minutes from your clock; drop a{' '}
          <Code>webhook-id</Code> you have already handled.
        </Text>
        <CodeBlock label="Signature rule in pseudocode">{HMAC_RULE}</CodeBlock>

        <Heading as="h3" size="md" id="webhook-retries" scrollMarginTop="20">
          Retries, Retry-After and 410
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          Only a 2xx answer within 15 seconds counts; redirects are not followed. A failed delivery is tried
          again after {RETRIES}, with the same <Code>webhook-id</Code>. On 429 or 503 a{' '}
          <Code>Retry-After</Code> header is honoured (up to 1 hour). Answering <Code>410 Gone</Code> disables
          the endpoint at once. An endpoint whose deliveries have failed for several days in a row (5 by
          default) is disabled too, and the account owner is emailed. Re-enable it on the Profile page or with{' '}
          <Code>PATCH</Code> <Code>{'{ "enabled": true }'}</Code>.
        </Text>

        <Heading as="h3" size="md" id="webhook-rotation" scrollMarginTop="20">
          Secret rotation
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          <Code>POST /api/webhooks/{'{id}'}/rotate-secret</Code> answers the new secret once and{' '}
          <Code>previousSecretExpiresAt</Code>. For 24 hours each delivery is signed with both secrets, as{' '}
          <Code>webhook-signature: v1,&lt;new&gt; v1,&lt;old&gt;</Code>, so a receiver on either secret
          verifies; switch yours within that window.
        </Text>

        <Heading as="h3" size="md" id="webhook-delivery-log" scrollMarginTop="20">
          Delivery log and resend
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          <Code>GET /api/webhooks/{'{id}'}/deliveries</Code> lists the last 100 attempts (kept 30 days),
          newest first: event, <Code>messageId</Code> (sent as <Code>webhook-id</Code>), job, attempt, status
          code, duration, error, the first 1 KB of your response, and an outcome of <Code>succeeded</Code>,{' '}
          <Code>retrying</Code> with a <Code>nextRetryAt</Code>, or <Code>failed</Code>.{' '}
          <Code>POST …/deliveries/{'{deliveryId}'}/resend</Code> sends that event once more with the same{' '}
          <Code>webhook-id</Code> and payload and a fresh signature; the attempt joins the log.
        </Text>

        <Heading as="h3" size="md" id="idempotency-key" scrollMarginTop="20">
          Idempotency-Key
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          <Code>POST /api/process</Code> takes an <Code>Idempotency-Key</Code> header: 1 to 255 visible ASCII
          characters (a UUID is a good choice; otherwise 400 <Code>INVALID_IDEMPOTENCY_KEY</Code>). The same
          key from the same account within 24 hours answers what the first request answered (the same job),
          with <Code>Idempotent-Replayed: true</Code>; an inline (non-async) answer can be replayed for 1
          hour, as long as its CSV is kept. The same key with a different body answers <Code>422</Code>{' '}
          <Code>IDEMPOTENCY_KEY_REUSED</Code>; while the first request is still running, a repeat answers{' '}
          <Code>409</Code> <Code>REQUEST_IN_PROGRESS</Code>; a first request that failed frees its key. Use a
          new key for each new piece of work.
        </Text>
      </DocSection>

      <DocSection id="integrations" title="Integrations">
        <Stack direction={{ base: 'column', md: 'row' }} gap="4">
          {[
            [
              'QuickBooks',
              'Built-in Customers, Vendors and Bank transactions templates.',
              '/quickbooks-csv-import',
            ],
            ['Shopify', 'Built-in Shopify products template.', '/shopify-csv-upload'],
            ['Anything that imports CSV', 'Upload its sample file as the template.', '/csv-converter-online'],
          ].map(([name, text, to]) => (
            <Card.Root key={name} flex="1">
              <Card.Body gap="2">
                <Heading as="h3" size="md">
                  {name}
                </Heading>
                <Text fontSize="sm" color="fg.muted">
                  {text}
                </Text>
                <Link asChild color="blue.700" fontSize="sm">
                  <RouterLink to={to}>
                    Read the {name === 'Anything that imports CSV' ? 'converter' : name} guide
                  </RouterLink>
                </Link>
              </Card.Body>
            </Card.Root>
          ))}
        </Stack>
        <Text color="fg.muted" fontSize="sm">
          CSV Mapper does not log in to your other systems: you (or your script) import the downloaded file,
          so no third-party credentials are ever shared.
        </Text>
      </DocSection>
    </ContentPage>
  );
}
