// The published API as an OpenAPI 3.1 document, served at /api/docs/openapi.json and rendered at /api/docs.
// Hand-written so it describes exactly what the routes accept and answer (see the e2e tests).

const error = { $ref: '#/components/schemas/Error' };
const errors = (codes: number[]) =>
  Object.fromEntries(
    codes.map((c) => [
      String(c),
      { description: 'Error', content: { 'application/json': { schema: error } } },
    ]),
  );
const bearer = [{ apiKey: [] }];
const json = (schema: object) => ({ 'application/json': { schema } });
const idParam = (name = 'id') => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const JOB_EVENTS = ['job.completed', 'job.failed', 'job.cancelled'];

/** The job.completed payload of the documentation's walk-through (apps/web/…/api-walkthrough.ts). */
const WEBHOOK_EVENT_EXAMPLE = {
  type: 'job.completed',
  timestamp: '2026-11-25T10:00:00.000Z',
  data: {
    jobId: 'csv-jobs-…',
    state: 'completed',
    batchId: null,
    mappingId: null,
    mappingName: null,
    dataFilename: 'data.csv',
    templateFilename: 'template.csv',
    rowsRead: 2,
    rowsWritten: 2,
    warningCount: 0,
    controlTotals: [
      {
        column: 'Amount',
        kind: 'debitCredit',
        sourceColumns: ['Debit', 'Credit'],
        sourceTotal: '849.50',
        outputTotal: '849.50',
        values: 2,
        unreadable: 0,
      },
    ],
    resultUrl: 'https://csvmapper.app/api/jobs/csv-jobs-…/result',
    resultExpiresAt: '2026-11-25T11:00:00.000Z',
    finishedAt: '2026-11-25T10:00:00.000Z',
    error: null,
  },
};

/** One outgoing event as OpenAPI 3.1 `webhooks` describes it: a signed POST to the endpoint's URL. */
const webhookOperation = (type: string, summary: string) => ({
  post: {
    summary,
    description:
      'Sent as a POST to every enabled endpoint subscribed to this event, signed the Standard Webhooks way: ' +
      'headers `webhook-id` (the same on retries and resends), `webhook-timestamp` (Unix seconds) and ' +
      '`webhook-signature` (space-separated `v1,<base64 HMAC-SHA256>` entries over ' +
      '`${webhook-id}.${webhook-timestamp}.${body}`, keyed with the base64-decoded secret after `whsec_`). ' +
      'Answer 2xx within 15 s. Retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (±20 %); `Retry-After` ' +
      'is honoured on 429/503 (up to 1 h); 410 disables the endpoint; redirects are not followed.',
    security: [],
    parameters: [
      { name: 'webhook-id', in: 'header', required: true, schema: { type: 'string' } },
      { name: 'webhook-timestamp', in: 'header', required: true, schema: { type: 'string' } },
      { name: 'webhook-signature', in: 'header', required: true, schema: { type: 'string' } },
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/WebhookEvent' },
              { type: 'object', properties: { type: { const: type } } },
            ],
          },
        },
      },
    },
    responses: {
      '2XX': { description: 'Delivered' },
      '410': { description: 'Gone: the endpoint is disabled and receives nothing more' },
    },
  },
});

const uploadBody = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['file'],
        properties: { file: { type: 'string', format: 'binary', description: 'A .csv file (text/csv)' } },
      },
    },
  },
};

export const OPENAPI_DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'CSV Mapper API',
    version: '1.0.0',
    description:
      'Upload a template and a data CSV, save a mapping, process it (large files run as background jobs) and ' +
      'download the result. Authenticate with an API key from your profile (Business and Enterprise plans): ' +
      '`Authorization: Bearer csvm_…`. Errors always answer `{ error, code }`.',
  },
  servers: [{ url: '/' }],
  security: bearer,
  components: {
    securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'csvm_…' } },
    schemas: {
      Error: {
        type: 'object',
        required: ['error', 'code'],
        properties: { error: { type: 'string' }, code: { type: 'string' }, details: {} },
      },
      UploadedFile: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          filename: { type: 'string' },
          headers: { type: 'array', items: { type: 'string' } },
          data: {
            type: 'array',
            items: { type: 'array', items: { type: 'string' } },
            description: 'First 5 rows',
          },
          type: { enum: ['template', 'data'] },
          rowCount: { type: 'integer' },
          delimiter: { type: 'string' },
          encoding: { enum: ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] },
          encodingReason: {
            type: 'string',
            description:
              'Why that encoding was assumed, e.g. "Read as Windows-1252 because the file is not valid UTF-8."',
          },
          headerRow: { type: 'integer' },
          exceedsRowLimit: { type: 'boolean' },
          actualRows: { type: 'integer' },
          maxRows: { type: 'integer' },
        },
      },
      Transform: {
        type: 'object',
        required: ['kind'],
        description:
          'date {input?: "auto"|pattern, output}; number {decimalSeparator?, decimals?}; amount {decimals?, negative?}; ' +
          'boolean {output: [true, false]}; debitCredit {debitColumn, creditColumn, sign?, decimals?}; constant {value}; trim; upper; lower',
        properties: {
          kind: {
            enum: [
              'date',
              'number',
              'amount',
              'boolean',
              'debitCredit',
              'constant',
              'trim',
              'upper',
              'lower',
            ],
          },
        },
        additionalProperties: true,
      },
      MappingPair: {
        type: 'object',
        required: ['templateColumn', 'dataColumn'],
        properties: {
          templateColumn: { type: 'string' },
          dataColumn: { type: 'string' },
          transform: { $ref: '#/components/schemas/Transform' },
        },
      },
      SavedMapping: {
        type: 'object',
        required: ['name', 'templateHeaders', 'dataHeaders', 'mappings'],
        properties: {
          id: { type: 'string', format: 'uuid' },
          name: { type: 'string' },
          description: { type: ['string', 'null'] },
          templateHeaders: { type: 'array', items: { type: 'string' } },
          dataHeaders: { type: 'array', items: { type: 'string' } },
          mappings: { type: 'array', items: { $ref: '#/components/schemas/MappingPair' } },
        },
      },
      ProcessRequest: {
        type: 'object',
        required: ['templateFileId', 'dataFileId'],
        description:
          'Send `mappings`, or `mappingId` to use a saved mapping (or both: `mappings` then wins).',
        properties: {
          templateFileId: {
            type: 'string',
            description: 'An upload id, or virtual-template-… with templateHeaders',
          },
          dataFileId: { type: 'string' },
          mappings: { type: 'array', items: { $ref: '#/components/schemas/MappingPair' } },
          mappingId: {
            type: 'string',
            format: 'uuid',
            description: 'A saved mapping whose pairs are used; job events then name it',
          },
          templateHeaders: { type: 'array', items: { type: 'string' } },
          async: { type: 'boolean', description: 'Run as a background job (plans with async processing)' },
          options: {
            type: 'object',
            properties: {
              formulaProtection: { type: 'boolean' },
              bom: { type: 'boolean' },
              delimiter: { enum: [',', ';', '\t', '|'] },
              lineEnding: { enum: ['\r\n', '\n'] },
            },
          },
        },
      },
      ProcessResponse: {
        type: 'object',
        properties: {
          csvData: { type: 'string' },
          filename: { type: 'string' },
          rowsProcessed: { type: 'integer' },
          totalRowsInFile: { type: 'integer' },
          limitExceeded: { type: 'boolean' },
          limitType: { enum: ['monthlyQuota', 'rows', null] },
          warningCount: { type: 'integer' },
          warnings: { type: 'array', items: { type: 'object' } },
          controlTotals: { type: 'array', items: { type: 'object' } },
        },
      },
      Queued: {
        type: 'object',
        properties: {
          jobId: { type: 'string' },
          status: { const: 'queued' },
          rowsToProcess: { type: 'integer' },
        },
      },
      Job: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          state: { enum: ['queued', 'active', 'completed', 'failed', 'cancelled'] },
          progress: { type: 'integer', minimum: 0, maximum: 100 },
          rowsProcessed: { type: 'integer' },
          totalRows: { type: 'integer' },
          warnings: { type: 'integer' },
          error: { type: ['string', 'null'] },
          resultUrl: { type: ['string', 'null'] },
        },
      },
      WebhookEndpoint: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          url: { type: 'string', format: 'uri' },
          events: { type: 'array', items: { enum: JOB_EVENTS } },
          enabled: { type: 'boolean' },
          disabledReason: { type: ['string', 'null'] },
          previousSecretExpiresAt: {
            type: ['string', 'null'],
            format: 'date-time',
            description: 'Until then deliveries are also signed with the secret before the last rotation',
          },
          createdAt: { type: 'string', format: 'date-time' },
          secret: { type: 'string', description: 'whsec_…, only in the creation response' },
        },
      },
      WebhookDelivery: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          event: { enum: [...JOB_EVENTS, 'test'] },
          messageId: { type: 'string', description: 'The webhook-id header' },
          jobId: { type: ['string', 'null'] },
          attempt: { type: 'integer', minimum: 1 },
          statusCode: { type: ['integer', 'null'] },
          durationMs: { type: ['integer', 'null'] },
          error: { type: ['string', 'null'] },
          responseSnippet: { type: ['string', 'null'], description: "First 1 KB of the receiver's response" },
          outcome: { enum: ['succeeded', 'retrying', 'failed'] },
          nextRetryAt: { type: ['string', 'null'], format: 'date-time' },
          createdAt: { type: 'string', format: 'date-time' },
        },
      },
      WebhookEvent: {
        type: 'object',
        required: ['type', 'timestamp', 'data'],
        description: 'The body of every webhook delivery (the `test` event carries `{ message }` as data)',
        properties: {
          type: { enum: [...JOB_EVENTS, 'test'] },
          timestamp: { type: 'string', format: 'date-time' },
          data: {
            type: 'object',
            required: ['jobId', 'state', 'finishedAt'],
            properties: {
              jobId: { type: 'string' },
              state: { enum: ['completed', 'failed', 'cancelled'] },
              batchId: { type: ['string', 'null'] },
              mappingId: { type: ['string', 'null'], description: 'When a saved mapping was used' },
              mappingName: { type: ['string', 'null'] },
              dataFilename: { type: 'string' },
              templateFilename: { type: 'string' },
              rowsRead: { type: 'integer' },
              rowsWritten: { type: 'integer' },
              warningCount: { type: 'integer' },
              controlTotals: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    column: { type: 'string' },
                    kind: { enum: ['amount', 'number', 'debitCredit'] },
                    sourceColumns: { type: 'array', items: { type: 'string' } },
                    sourceTotal: { type: 'string', description: 'Decimal as a string' },
                    outputTotal: { type: 'string' },
                    values: { type: 'integer' },
                    unreadable: { type: 'integer' },
                  },
                },
              },
              resultUrl: {
                type: ['string', 'null'],
                format: 'uri',
                description: 'Absolute download URL (send your API key); completed only',
              },
              resultExpiresAt: { type: ['string', 'null'], format: 'date-time' },
              finishedAt: { type: 'string', format: 'date-time' },
              error: {
                type: ['object', 'null'],
                description: 'failed only',
                properties: { code: { type: 'string' }, message: { type: 'string' } },
              },
            },
          },
        },
        examples: [WEBHOOK_EVENT_EXAMPLE],
      },
    },
  },
  paths: {
    '/api/plans': {
      get: {
        summary: 'The plan catalogue (public, no authentication): prices, features and limits per plan',
        security: [],
        responses: {
          '200': {
            description: 'Plans keyed free, pro, business, enterprise',
            content: json({
              type: 'object',
              additionalProperties: {
                type: 'object',
                properties: {
                  key: { type: 'string' },
                  name: { type: 'string' },
                  price: { type: 'string', example: '£12/month' },
                  priceGbp: { type: 'number', nullable: true },
                  features: { type: 'array', items: { type: 'string' } },
                  restrictions: { type: 'array', items: { type: 'string' } },
                  maxFileSize: { type: 'integer', description: 'bytes; -1 = unlimited' },
                  maxSavedMappings: { type: 'integer', description: '-1 = unlimited' },
                  limits: { type: 'object' },
                },
              },
            }),
          },
        },
      },
    },
    '/api/templates': {
      get: {
        summary: 'The built-in target templates with their headers (public)',
        security: [],
        responses: {
          '200': {
            description: 'Templates',
            content: json({
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  id: { type: 'string' },
                  name: { type: 'string' },
                  headers: { type: 'array', items: { type: 'string' } },
                },
                additionalProperties: true,
              },
            }),
          },
        },
      },
    },
    '/api/upload/template': {
      post: {
        summary: 'Upload a template CSV (headers only)',
        requestBody: uploadBody,
        responses: {
          '201': {
            description: 'Stored for 1 hour',
            content: json({ $ref: '#/components/schemas/UploadedFile' }),
          },
          ...errors([400, 401, 403, 413, 415]),
        },
      },
    },
    '/api/upload/data': {
      post: {
        summary: 'Upload a data CSV (headers and rows)',
        requestBody: uploadBody,
        responses: {
          '201': {
            description: 'Stored for 1 hour',
            content: json({ $ref: '#/components/schemas/UploadedFile' }),
          },
          ...errors([400, 401, 403, 413, 415]),
        },
      },
    },
    '/api/process/preview': {
      post: {
        summary: 'The first 10 rows a mapping would produce, with warnings (not counted against the quota)',
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/ProcessRequest' }) },
        responses: {
          '200': {
            description: 'Preview',
            content: json({
              type: 'object',
              properties: {
                headers: { type: 'array', items: { type: 'string' } },
                rows: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
                warningCount: { type: 'integer' },
                warnings: { type: 'array', items: { type: 'object' } },
                totalRowsInFile: { type: 'integer' },
              },
            }),
          },
          ...errors([400, 401, 403, 404]),
        },
      },
    },
    '/api/mappings': {
      get: {
        summary: 'List your saved mappings',
        responses: {
          '200': {
            description: 'Saved mappings',
            content: json({ type: 'array', items: { $ref: '#/components/schemas/SavedMapping' } }),
          },
          ...errors([401]),
        },
      },
    },
    '/api/mappings/{id}': {
      get: {
        summary: 'One saved mapping (its id is what POST /api/process takes as mappingId)',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: {
          '200': { description: 'The mapping', content: json({ $ref: '#/components/schemas/SavedMapping' }) },
          ...errors([401, 404]),
        },
      },
      put: {
        summary: 'Create or update a saved mapping under this id',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/SavedMapping' }) },
        responses: {
          '200': { description: 'Updated', content: json({ $ref: '#/components/schemas/SavedMapping' }) },
          '201': { description: 'Created', content: json({ $ref: '#/components/schemas/SavedMapping' }) },
          ...errors([400, 401, 403, 404]),
        },
      },
    },
    '/api/process': {
      post: {
        summary: 'Apply a mapping to an uploaded data file',
        parameters: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              '1 to 255 visible ASCII characters (else 400 INVALID_IDEMPOTENCY_KEY). The same key from the same ' +
              'account within 24 h answers the first answer again (header `Idempotent-Replayed: true`; an inline ' +
              'answer for 1 h); with a different body, 422 IDEMPOTENCY_KEY_REUSED; while the first request still ' +
              'runs, 409 REQUEST_IN_PROGRESS.',
            schema: { type: 'string', maxLength: 255 },
          },
        ],
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/ProcessRequest' }) },
        responses: {
          '200': {
            description: 'Processed inline',
            content: json({ $ref: '#/components/schemas/ProcessResponse' }),
          },
          '202': {
            description: 'Queued as a background job',
            content: json({ $ref: '#/components/schemas/Queued' }),
          },
          ...errors([400, 401, 403, 404, 409, 422]),
        },
      },
    },
    '/api/jobs': {
      get: {
        summary: 'Your background jobs, newest first',
        responses: {
          '200': {
            description: 'Jobs',
            content: json({ type: 'array', items: { $ref: '#/components/schemas/Job' } }),
          },
          ...errors([401]),
        },
      },
    },
    '/api/jobs/{id}': {
      get: {
        summary: 'State and progress of a background job',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': { description: 'The job', content: json({ $ref: '#/components/schemas/Job' }) },
          ...errors([401, 404]),
        },
      },
      delete: {
        summary: 'Cancel a queued or running job',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': { description: 'Cancelled', content: json({ $ref: '#/components/schemas/Job' }) },
          ...errors([401, 404, 409]),
        },
      },
    },
    '/api/jobs/{id}/result': {
      get: {
        summary: 'Download the generated CSV (kept 1 hour)',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': { description: 'The CSV', content: { 'text/csv': { schema: { type: 'string' } } } },
          ...errors([401, 404, 409, 410]),
        },
      },
    },
    '/api/webhooks': {
      get: {
        summary: 'List webhook endpoints',
        responses: {
          '200': {
            description: 'Endpoints',
            content: json({ type: 'array', items: { $ref: '#/components/schemas/WebhookEndpoint' } }),
          },
          ...errors([401, 403]),
        },
      },
      post: {
        summary: 'Add an endpoint (the signing secret is returned once)',
        requestBody: {
          required: true,
          content: json({
            type: 'object',
            required: ['url'],
            properties: { url: { type: 'string' }, events: { type: 'array', items: { type: 'string' } } },
          }),
        },
        responses: {
          '201': { description: 'Created', content: json({ $ref: '#/components/schemas/WebhookEndpoint' }) },
          ...errors([400, 401, 403]),
        },
      },
    },
    '/api/webhooks/{id}': {
      patch: {
        summary: 'Change an endpoint: url, events (at least one), enabled',
        parameters: [idParam()],
        requestBody: {
          required: true,
          content: json({
            type: 'object',
            properties: {
              url: { type: 'string' },
              events: { type: 'array', minItems: 1, items: { enum: JOB_EVENTS } },
              enabled: { type: 'boolean' },
            },
          }),
        },
        responses: {
          '200': { description: 'Updated', content: json({ $ref: '#/components/schemas/WebhookEndpoint' }) },
          ...errors([400, 401, 403, 404]),
        },
      },
      delete: {
        summary: 'Delete an endpoint',
        parameters: [idParam()],
        responses: { '204': { description: 'Deleted' }, ...errors([401, 403, 404]) },
      },
    },
    '/api/webhooks/{id}/test': {
      post: {
        summary: 'Send one signed test event (one attempt)',
        parameters: [idParam()],
        responses: {
          '202': {
            description: 'Queued',
            content: json({ type: 'object', properties: { messageId: { type: 'string' } } }),
          },
          ...errors([401, 403, 404]),
        },
      },
    },
    '/api/webhooks/{id}/rotate-secret': {
      post: {
        summary: 'Replace the signing secret (shown once); deliveries carry both signatures for 24 h',
        parameters: [idParam()],
        responses: {
          '200': {
            description: 'The new secret',
            content: json({
              type: 'object',
              properties: {
                secret: { type: 'string', description: 'whsec_…' },
                previousSecretExpiresAt: { type: 'string', format: 'date-time' },
              },
            }),
          },
          ...errors([401, 403, 404]),
        },
      },
    },
    '/api/webhooks/{id}/deliveries': {
      get: {
        summary: 'The last 100 delivery attempts, newest first (kept 30 days)',
        parameters: [idParam()],
        responses: {
          '200': {
            description: 'Attempts',
            content: json({ type: 'array', items: { $ref: '#/components/schemas/WebhookDelivery' } }),
          },
          ...errors([401, 403, 404]),
        },
      },
    },
    '/api/webhooks/{id}/deliveries/{deliveryId}/resend': {
      post: {
        summary: 'Send a delivery’s event again: same webhook-id and payload, fresh signature, one attempt',
        parameters: [idParam(), idParam('deliveryId')],
        responses: {
          '202': {
            description: 'Queued',
            content: json({ type: 'object', properties: { messageId: { type: 'string' } } }),
          },
          ...errors([401, 403, 404]),
        },
      },
    },
  },
  webhooks: {
    'job.completed': webhookOperation(
      'job.completed',
      'A job finished; the result can be downloaded from resultUrl',
    ),
    'job.failed': webhookOperation('job.failed', 'A job failed; data.error says why'),
    'job.cancelled': webhookOperation('job.cancelled', 'A job was cancelled'),
  },
} as const;
