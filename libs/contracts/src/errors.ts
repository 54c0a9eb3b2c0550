// Every failure answers `{ error, code, details? }` (ARCHITECTURE §5). `code` is what clients switch on;
// `error` is for people and may change wording.

/** The body of every non-2xx answer. */
export class ErrorBody {
  /** For people: what went wrong and what to do. */
  error: string;
  /** For programs: one of ERROR_CODES (switch on this, never on the message). */
  code: string;
  /** Field-level problems of a rejected request body: field path → messages. */
  details?: Record<string, string[]> | Record<string, unknown>;
}

/** Codes clients can rely on. */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'INVALID_CREDENTIALS',
  'CSRF_REJECTED',
  'NOT_FOUND',
  'MAPPING_NOT_FOUND',
  'FILE_NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
  // auth
  'INVALID_PASSWORD',
  'INVALID_PASSWORD_FORMAT',
  'PASSWORD_REQUIRED',
  'EMAIL_REQUIRED',
  'TOKEN_REQUIRED',
  'USER_EXISTS',
  'TOO_MANY_ATTEMPTS',
  // plans and billing
  'PLAN_FEATURE_UNAVAILABLE',
  'UPGRADE_REQUIRED',
  'INVALID_PLAN',
  'SAME_PLAN',
  'NO_SUBSCRIPTION',
  'NOT_CANCELLING',
  'NOTHING_TO_RESET',
  'INVALID_SIGNATURE',
  'INVALID_WEBHOOK',
  'INVALID_OUTCOME',
  'INVALID_DAYS',
  // files and mapping
  'MISSING_FILES',
  'TEMPLATE_HEADERS_REQUIRED',
  'UNKNOWN_COLUMN',
  'DUPLICATE_MAPPING',
  'UNMAPPED_COLUMNS',
  'INVALID_MAPPING',
  'INVALID_OPTIONS',
  'BINARY_FILE',
  'UNTERMINATED_QUOTE',
  'FIELD_TOO_LARGE',
  'ROW_TOO_LARGE',
  'TOO_MANY_COLUMNS',
  'EMPTY_HEADER',
  'EMPTY_FILE',
  'INVALID_ENCODING',
  'NAME_REQUIRED',
  'NAME_TOO_LONG',
  // saved mapping runs (issue 30)
  'SOURCE_CHANGED',
  'TEMPLATE_FILE_REQUIRED',
  // jobs and webhooks
  'JOB_NOT_FINISHED',
  'JOB_FINISHED',
  'RESULT_EXPIRED',
  'DATA_FILE_EXPIRED',
  'JOB_FAILED',
  'REQUEST_IN_PROGRESS',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENT_RESPONSE_EXPIRED',
  'INVALID_IDEMPOTENCY_KEY',
  'TOO_MANY_ENDPOINTS',
  'ENDPOINT_DISABLED',
  // answered by the api today, listed so clients can switch on them
  'INVALID_CHARACTERS',
  'INVALID_ID',
  'TOO_MANY_REQUESTS',
  'CLIENT_CLOSED_REQUEST',
  'ACCOUNT_EXISTS',
  'INVALID_RESET_TOKEN',
  'API_ACCESS_NOT_IN_PLAN',
  'TOO_MANY_KEYS',
  'MAPPING_LIMIT_REACHED',
  'ALREADY_SUBSCRIBED',
  'ALREADY_CANCELLING',
  'CONTACT_SALES',
  'SESSION_CLOSED',
  'NOT_INCOMPLETE',
  'NO_FILE',
  'INVALID_UPLOAD',
  'INVALID_UPLOAD_TYPE',
  'UNSUPPORTED_FILE_TYPE',
  'NO_DATA_ROWS',
  'FILE_TOO_LARGE',
  'DIRECT_UPLOAD_UNAVAILABLE',
  'UPLOAD_NOT_FOUND',
  'UPLOAD_NOT_RECEIVED',
  'UPLOAD_EXPIRED',
  'UPLOAD_SIZE_MISMATCH',
  'TOO_MANY_UPLOADS',
  // review and fix (issue 22)
  'INVALID_ROW',
  'PATCH_TOO_LARGE',
  'QUOTA_EXHAUSTED',
  // teams
  'TEAM_READ_ONLY',
  'TEAM_SEAT_LIMIT',
  'ACCOUNT_HOLDER_ONLY',
  'INVALID_INVITATION',
  'ALREADY_IN_TEAM',
  'CANNOT_JOIN_TEAM',
  'TEAM_HAS_MEMBERS',
  // bulk uploads
  'TOO_MANY_FILES',
  'BATCH_QUOTA_EXCEEDED',
  'NO_FILES_ACCEPTED',
  // workbooks and reading choices
  'UNSUPPORTED_WORKBOOK',
  'INVALID_WORKBOOK',
  'WORKBOOK_TOO_LARGE',
  'UNKNOWN_SHEET',
  'HEADER_ROW_PAST_END',
  'NOT_A_WORKBOOK_OPTION',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
