// The API walk-through of the documentation page: every command a reader copies, in one place, as plain
// strings. apps/api/test/docs-walkthrough.e2e-spec.ts runs these exact commands with bash, curl and jq
// against a running api and worker, and runs RECEIVER_SOURCE with node, so the page cannot drift from
// what the api does. Plain data: no React, no imports (it is also read by that test).

export interface WalkthroughVariable {
  name: string;
  example: string;
  explanation: string;
}

export interface WalkthroughStep {
  id: string;
  title: string;
  explanation: string;
  /** Pasted as it is into one terminal, after the variables below are set. */
  command: string;
  /** Shell variables the command sets for later steps. */
  sets: string[];
}

/** What the reader sets once, before the first step (the test sets the same names, nothing else). */
export const WALKTHROUGH_VARIABLES: WalkthroughVariable[] = [
  {
    name: 'CSVM_URL',
    example: 'https://csvmapper.app',
    explanation: 'The address of CSV Mapper, without a trailing slash.',
  },
  {
    name: 'CSVM_KEY',
    example: 'csvm_…',
    explanation: 'Your API key (Profile → API keys). It is shown once: keep it in your secret manager.',
  },
  {
    name: 'WEBHOOK_URL',
    example: 'https://example.com/csv-mapper/webhook',
    explanation: 'Where your webhook receiver (below) can be reached from the internet.',
  },
];

export const SETUP_COMMAND = WALKTHROUGH_VARIABLES.map((v) => `export ${v.name}="${v.example}"`).join('\n');

/** The two files the walk-through uploads; save them beside your terminal to follow along. */
export const SAMPLE_FILES: Record<'template.csv' | 'data.csv', string> = {
  'template.csv': 'Date,Customer,Amount\n',
  'data.csv': 'Booking date,Name,Debit,Credit\n25/11/2026,  Acme Ltd ,,1200.00\n26/11/2026,Globex,350.50,\n',
};

/** What step "download the result" saves as result.csv from the sample files (lines end with CRLF). */
export const SAMPLE_RESULT =
  'Date,Customer,Amount\r\n2026-11-25,Acme Ltd,1200.00\r\n2026-11-26,Globex,-350.50\r\n';

export const WALKTHROUGH_STEPS: WalkthroughStep[] = [
  {
    id: 'register-webhook',
    title: 'Register your webhook endpoint',
    explanation:
      'A new endpoint receives job.completed, job.failed, job.cancelled and batch.completed. The answer holds its signing ' +
      'secret (whsec_…) once: give it to your receiver and keep it in your secret manager.',
    command: `WEBHOOK=$(jq -n --arg url "$WEBHOOK_URL" '{url: $url}' |
  curl -sS -H "Authorization: Bearer $CSVM_KEY" -H "Content-Type: application/json" \\
    -d @- "$CSVM_URL/api/webhooks")
echo "$WEBHOOK" | jq '{id, url, events}'
WEBHOOK_ID=$(echo "$WEBHOOK" | jq -r .id)
WEBHOOK_SECRET=$(echo "$WEBHOOK" | jq -r .secret)`,
    sets: ['WEBHOOK_ID', 'WEBHOOK_SECRET'],
  },
  {
    id: 'upload-template',
    title: 'Upload the template',
    explanation:
      'A CSV whose first row holds the columns your target system expects. Uploads are kept for 1 hour.',
    command: `curl -sS -H "Authorization: Bearer $CSVM_KEY" -F file=@template.csv \\
  "$CSVM_URL/api/upload/template" | tee template.json | jq '{id, headers}'
TEMPLATE_ID=$(jq -r .id template.json)`,
    sets: ['TEMPLATE_ID'],
  },
  {
    id: 'upload-data',
    title: 'Upload the data file',
    explanation: 'Headers plus rows; comma, semicolon or tab separated, UTF-8 with or without BOM.',
    command: `curl -sS -H "Authorization: Bearer $CSVM_KEY" -F file=@data.csv \\
  "$CSVM_URL/api/upload/data" | tee data.json | jq '{id, headers, rowCount}'
DATA_ID=$(jq -r .id data.json)`,
    sets: ['DATA_ID'],
  },
  {
    id: 'start-job',
    title: 'Start a background job, with an Idempotency-Key',
    explanation:
      '"async": true queues a job and answers 202 with its id. The Idempotency-Key makes the request safe to ' +
      'retry: the same key from your account within 24 hours answers the same job instead of starting a ' +
      'second one. To use a mapping saved in the app, send "mappingId": "<id from GET /api/mappings>" ' +
      'instead of "mappings".',
    command: `jq -n --arg template "$TEMPLATE_ID" --arg data "$DATA_ID" '{
  templateFileId: $template,
  dataFileId: $data,
  async: true,
  mappings: [
    {templateColumn: "Date", dataColumn: "Booking date",
     transform: {kind: "date", input: "DD/MM/YYYY", output: "YYYY-MM-DD"}},
    {templateColumn: "Customer", dataColumn: "Name", transform: {kind: "trim"}},
    {templateColumn: "Amount", dataColumn: "",
     transform: {kind: "debitCredit", debitColumn: "Debit", creditColumn: "Credit"}}
  ]
}' > process.json
IDEMPOTENCY_KEY="orders-$(date +%Y%m%d-%H%M%S)"
curl -sS -H "Authorization: Bearer $CSVM_KEY" -H "Content-Type: application/json" \\
  -H "Idempotency-Key: $IDEMPOTENCY_KEY" -d @process.json \\
  "$CSVM_URL/api/process" | tee job.json | jq .
JOB_ID=$(jq -r .jobId job.json)`,
    sets: ['IDEMPOTENCY_KEY', 'JOB_ID'],
  },
  {
    id: 'retry-job',
    title: 'Retry safely: same key, same job',
    explanation:
      'Lost the answer to a timeout? Send the same request with the same key: you get the same job back, ' +
      'marked Idempotent-Replayed: true. The same key with a different body answers 422 ' +
      'IDEMPOTENCY_KEY_REUSED.',
    command: `curl -sS -D - -o job-again.json -H "Authorization: Bearer $CSVM_KEY" \\
  -H "Content-Type: application/json" -H "Idempotency-Key: $IDEMPOTENCY_KEY" \\
  -d @process.json "$CSVM_URL/api/process" | grep -i '^idempotent-replayed'
jq -r .jobId job-again.json   # the same as $JOB_ID`,
    sets: [],
  },
  {
    id: 'poll-job',
    title: 'Poll the job (or let the webhook tell you)',
    explanation:
      'state moves from queued to active to completed, failed or cancelled; progress counts to 100. With a ' +
      'webhook endpoint you do not need to poll: job.completed arrives when the result is ready.',
    command: `while true; do
  JOB=$(curl -sS -H "Authorization: Bearer $CSVM_KEY" "$CSVM_URL/api/jobs/$JOB_ID")
  echo "$JOB" | jq -c '{state, progress, rowsProcessed, error}'
  case "$(echo "$JOB" | jq -r .state)" in completed|failed|cancelled|null) break ;; esac
  sleep 2
done`,
    sets: [],
  },
  {
    id: 'download-result',
    title: 'Download the result',
    explanation: 'The generated CSV is kept for 1 hour after the job completes (410 RESULT_EXPIRED after).',
    command: `curl -sSf -H "Authorization: Bearer $CSVM_KEY" -o result.csv \\
  "$CSVM_URL/api/jobs/$JOB_ID/result"
cat result.csv`,
    sets: [],
  },
  {
    id: 'delivery-log',
    title: 'See the delivery log',
    explanation:
      'Every delivery attempt of the last 30 days (the newest 100): event, status code, duration, the first ' +
      '1 KB of your answer and whether it succeeded, is retrying or failed.',
    command: `curl -sS -H "Authorization: Bearer $CSVM_KEY" "$CSVM_URL/api/webhooks/$WEBHOOK_ID/deliveries" |
  tee deliveries.json | jq '.[] | {event, attempt, statusCode, outcome, createdAt}'
DELIVERY_ID=$(jq -r 'map(select(.event == "job.completed"))[0].id' deliveries.json)`,
    sets: ['DELIVERY_ID'],
  },
  {
    id: 'resend-delivery',
    title: 'Resend a delivery',
    explanation:
      'Sends that event again with the same webhook-id and payload (fresh timestamp and signature), once. ' +
      'A receiver that de-duplicates on webhook-id answers 200 and does nothing twice.',
    command: `curl -sS -X POST -H "Authorization: Bearer $CSVM_KEY" \\
  "$CSVM_URL/api/webhooks/$WEBHOOK_ID/deliveries/$DELIVERY_ID/resend" | jq .`,
    sets: [],
  },
  {
    id: 'rotate-secret',
    title: 'Rotate the signing secret',
    explanation:
      'The new secret is shown once. For 24 hours every delivery carries two signatures, one per secret, so ' +
      'your receiver keeps verifying while you deploy the new one. The test event proves it.',
    command: `curl -sS -X POST -H "Authorization: Bearer $CSVM_KEY" \\
  "$CSVM_URL/api/webhooks/$WEBHOOK_ID/rotate-secret" | tee rotated.json | jq '{previousSecretExpiresAt}'
NEW_WEBHOOK_SECRET=$(jq -r .secret rotated.json)
curl -sS -X POST -H "Authorization: Bearer $CSVM_KEY" "$CSVM_URL/api/webhooks/$WEBHOOK_ID/test" | jq .`,
    sets: ['NEW_WEBHOOK_SECRET'],
  },
];

/** How to run the receiver; the test runs RECEIVER_SOURCE with these two variables and nothing else. */
export const RECEIVER_RUN = `npm install standardwebhooks
WEBHOOK_SECRET="$WEBHOOK_SECRET" PORT=3001 node receiver.js`;

/** A complete webhook receiver in Node.js (CommonJS, no framework) using the Standard Webhooks library. */
export const RECEIVER_SOURCE = `// receiver.js: verifies CSV Mapper webhooks (headers webhook-id, webhook-timestamp, webhook-signature)
const http = require('node:http');
const { Webhook } = require('standardwebhooks');

const wh = new Webhook(process.env.WEBHOOK_SECRET); // "whsec_…"
const handled = new Set(); // webhook-ids already processed; use a database table in production

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      // Verify the exact bytes received, before any JSON parsing.
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let event;
      try {
        // Checks every "v1,…" entry of webhook-signature and refuses timestamps more than 5 minutes off.
        event = wh.verify(rawBody, req.headers);
      } catch (err) {
        console.log(\`rejected: \${err.message}\`);
        res.writeHead(400).end();
        return;
      }
      const id = req.headers['webhook-id']; // the same on every retry and resend of one event
      if (handled.has(id)) {
        console.log(\`duplicate \${id}: already handled\`);
        res.writeHead(200).end();
        return;
      }
      handled.add(id);
      console.log(\`verified \${id} \${rawBody}\`);
      // Answer 2xx within 15 seconds; do slow work (e.g. download data.resultUrl) after answering.
      res.writeHead(200).end();
    });
  })
  .listen(Number(process.env.PORT ?? 3001), () => console.log(\`listening on port \${process.env.PORT ?? 3001}\`));
`;

/** The job.completed payload, as the receiver above prints it (pretty-printed). */
export const PAYLOAD_EXAMPLE = `{
  "type": "job.completed",
  "timestamp": "2026-11-25T10:00:00.000Z",
  "data": {
    "jobId": "csv-jobs-…",
    "state": "completed",
    "batchId": null,
    "mappingId": null,
    "mappingName": null,
    "dataFilename": "data.csv",
    "templateFilename": "template.csv",
    "rowsRead": 2,
    "rowsWritten": 2,
    "warningCount": 0,
    "controlTotals": [
      {
        "column": "Amount",
        "kind": "debitCredit",
        "sourceColumns": ["Debit", "Credit"],
        "sourceTotal": "849.50",
        "outputTotal": "849.50",
        "values": 2,
        "unreadable": 0
      }
    ],
    "resultUrl": "https://csvmapper.app/api/jobs/csv-jobs-…/result",
    "resultExpiresAt": "2026-11-25T11:00:00.000Z",
    "finishedAt": "2026-11-25T10:00:00.000Z",
    "error": null
  }
}`;

/** Verification without the library, for any language. */
export const HMAC_RULE = `signed_content = webhook-id + "." + webhook-timestamp + "." + raw_body
key            = base64_decode(secret without the "whsec_" prefix)
expected       = base64(HMAC_SHA256(key, signed_content))
valid          = any entry "v1,<signature>" of webhook-signature (space-separated)
                 where constant_time_equal(<signature>, expected)
reject         when |now - webhook-timestamp| > 300 seconds
de-duplicate   on webhook-id (retries and resends reuse it)`;
