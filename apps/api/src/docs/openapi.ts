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
          encoding: { type: 'string' },
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
        required: ['templateFileId', 'dataFileId', 'mappings'],
        properties: {
          templateFileId: {
            type: 'string',
            description: 'An upload id, or virtual-template-… with templateHeaders',
          },
          dataFileId: { type: 'string' },
          mappings: { type: 'array', items: { $ref: '#/components/schemas/MappingPair' } },
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
          events: { type: 'array', items: { enum: ['job.completed', 'job.failed'] } },
          enabled: { type: 'boolean' },
          secret: { type: 'string', description: 'whsec_…, only in the creation response' },
        },
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
    '/api/mappings/{id}': {
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
          ...errors([400, 401, 403, 404]),
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
  },
} as const;
