import { Badge, Box, Card, Code, HStack, Heading, Link, List, Stack, Table, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { PageLink as RouterLink } from '../../components/page-link';
// The API reference is rendered from the same OpenAPI document the api serves at /api/docs/openapi.json,
// imported at build time: it is plain data (no imports), it lands in the prerendered HTML so crawlers and
// readers without JavaScript see it, and it can never drift from what the api publishes.
import { OPENAPI_DOCUMENT } from '../../../../api/src/docs/openapi';
import { ContentPage } from '../../features/public/content-page';

interface Operation {
  summary?: string;
  responses?: Record<string, { description?: string }>;
}

const METHODS = ['get', 'post', 'put', 'delete'] as const;
const METHOD_COLOURS: Record<string, string> = { get: 'blue', post: 'green', put: 'orange', delete: 'red' };

const ENDPOINTS = Object.entries(
  OPENAPI_DOCUMENT.paths as Record<string, Partial<Record<string, Operation>>>,
).flatMap(([path, ops]) =>
  METHODS.filter((m) => ops[m]).map((m) => ({
    method: m.toUpperCase(),
    colour: METHOD_COLOURS[m],
    path,
    summary: ops[m]?.summary ?? '',
    statuses: Object.keys(ops[m]?.responses ?? {}).join(', '),
  })),
);

const CURL = `# 1. Upload the template (headers only) and the data file
curl -s -H "Authorization: Bearer $CSVM_KEY" -F file=@template.csv \\
  https://csvmapper.app/api/upload/template        # → { "id": "tpl…", "headers": [...] }
curl -s -H "Authorization: Bearer $CSVM_KEY" -F file=@orders.csv \\
  https://csvmapper.app/api/upload/data            # → { "id": "dat…", "rowCount": 120000 }

# 2. Process with a mapping ("async": true queues a background job)
curl -s -H "Authorization: Bearer $CSVM_KEY" -H "Content-Type: application/json" \\
  -d '{"templateFileId":"tpl…","dataFileId":"dat…","async":true,
       "mappings":[{"templateColumn":"Date","dataColumn":"Booking date",
                    "transform":{"kind":"date","input":"auto","output":"MM/DD/YYYY"}},
                   {"templateColumn":"Amount","dataColumn":"",
                    "transform":{"kind":"debitCredit","debitColumn":"Debit","creditColumn":"Credit"}}]}' \\
  https://csvmapper.app/api/process                # → 202 { "jobId": "…", "status": "queued" }

# 3. Poll the job until state is "completed"
curl -s -H "Authorization: Bearer $CSVM_KEY" https://csvmapper.app/api/jobs/$JOB_ID
# → { "state": "active", "progress": 40, "rowsProcessed": 48000, ... }

# 4. Download the result (kept for 1 hour)
curl -s -H "Authorization: Bearer $CSVM_KEY" -o result.csv \\
  https://csvmapper.app/api/jobs/$JOB_ID/result`;

const VERIFY = `// Node.js: verify a CSV Mapper webhook (Standard Webhooks, v1 HMAC-SHA256)
import { createHmac, timingSafeEqual } from 'node:crypto';

export function verify(rawBody, headers, secret /* "whsec_…" */) {
  const id = headers['webhook-id'];
  const ts = Number(headers['webhook-timestamp']);
  if (Math.abs(Date.now() / 1000 - ts) > 300) throw new Error('timestamp too old');
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(\`\${id}.\${ts}.\${rawBody}\`).digest('base64');
  const ok = headers['webhook-signature'].split(' ').some((s) => {
    const [version, sig] = s.split(',');
    return version === 'v1' && sig.length === expected.length &&
      timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
  });
  if (!ok) throw new Error('bad signature');
  return JSON.parse(rawBody); // { type: "job.completed", timestamp, data: { jobId, ... } }
}

// Or with the official library: npm install standardwebhooks
// new Webhook(secret).verify(rawBody, headers)`;

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
      eyebrow={`User guide and API reference (OpenAPI ${OPENAPI_DOCUMENT.openapi}, API version ${OPENAPI_DOCUMENT.info.version})`}
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
            signed amount, constant value, trim, upper, lower.
          </List.Item>
          <List.Item>
            <strong>Generate and download</strong>: the CSV is built with the template’s columns in order.
            Values a transform cannot read are passed through unchanged and listed as warnings. Save the
            mapping to reuse it from Saved Mappings.
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
        <Text color="fg.muted">{OPENAPI_DOCUMENT.info.description.replace(/`/g, '')}</Text>
        <Text color="fg.muted" fontSize="sm">
          Machine-readable document: <Code>/api/docs/openapi.json</Code>. Every error answers JSON{' '}
          <Code>{'{ "error": "…", "code": "…" }'}</Code> with a 4xx or 5xx status.
        </Text>
        <Table.ScrollArea borderWidth="1px" rounded="lg" tabIndex={0} role="region" aria-label="Endpoints">
          <Table.Root size="sm" css={{ '& td:nth-of-type(3)': { whiteSpace: 'normal', minWidth: '12rem' } }}>
            <Table.Caption srOnly>Endpoints of the published API</Table.Caption>
            <Table.Header>
              <Table.Row bg="bg.muted">
                <Table.ColumnHeader scope="col">Method</Table.ColumnHeader>
                <Table.ColumnHeader scope="col">Path</Table.ColumnHeader>
                <Table.ColumnHeader scope="col">What it does</Table.ColumnHeader>
                <Table.ColumnHeader scope="col">Statuses</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {ENDPOINTS.map((e) => (
                <Table.Row key={`${e.method} ${e.path}`} data-testid="api-endpoint">
                  <Table.Cell>
                    <Badge colorPalette={e.colour} variant="subtle" fontFamily="mono">
                      {e.method}
                    </Badge>
                  </Table.Cell>
                  <Table.Cell>
                    <Code>{e.path}</Code>
                  </Table.Cell>
                  <Table.Cell>{e.summary}</Table.Cell>
                  <Table.Cell fontSize="xs" color="fg.muted">
                    {e.statuses}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
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
        <CodeBlock label="curl example of the API flow">{CURL}</CodeBlock>
        <Text color="fg.muted" fontSize="sm">
          Small files processed without <Code>async</Code> answer <Code>200</Code> with <Code>csvData</Code>{' '}
          directly. Save a mapping for reuse with <Code>PUT /api/mappings/{'{id}'}</Code>.
        </Text>
      </DocSection>

      <DocSection id="webhooks" title="Webhooks">
        <Text color="fg.muted">
          Business and Enterprise accounts can register HTTPS endpoints (Profile → Webhooks, or{' '}
          <Code>POST /api/webhooks</Code>) for the events <Code>job.completed</Code> and{' '}
          <Code>job.failed</Code>. Each delivery is a JSON <Code>{'{ type, timestamp, data }'}</Code> signed
          the Standard Webhooks way with the endpoint’s secret (<Code>whsec_…</Code>, shown once): headers{' '}
          <Code>webhook-id</Code>, <Code>webhook-timestamp</Code> and{' '}
          <Code>webhook-signature: v1,&lt;base64 HMAC-SHA256&gt;</Code> over <Code>id.timestamp.body</Code>.
          Answer with any 2xx within 15 seconds; failed deliveries are retried with exponential backoff for
          about a day, and the <Code>webhook-id</Code> stays the same across retries so you can drop
          duplicates.
        </Text>
        <CodeBlock label="Webhook signature verification in Node.js">{VERIFY}</CodeBlock>
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
