/**
 * Every error code the service answers with, and the HTTP status it maps to.
 * This table is the one place where a domain failure becomes an HTTP status.
 */
export const ERROR_STATUS = {
  // Generic HTTP-level failures.
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  VALIDATION_ERROR: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  NOT_IMPLEMENTED: 501,
  SERVICE_UNAVAILABLE: 503,

  // Credits (section 7: 402 with a bare {detail} body).
  INSUFFICIENT_CREDITS: 402,

  // Connections and introspection.
  CONNECTION_FAILED: 422,
  CONNECTION_REJECTED: 422,
  CONNECTION_INACTIVE: 409,
  INTROSPECTION_FAILED: 502,

  // Migration analysis and execution (section 7).
  SQL_PARSE_ERROR: 422,
  TOKEN_INVALID: 401,
  TOKEN_MISMATCH: 400,
  MIGRATION_IN_PROGRESS: 409,

  // Query optimization.
  UNSUPPORTED_STATEMENT: 422,

  // Text-to-SQL (section 7).
  SCHEMA_VALIDATION_FAILED: 422,
  SQL_GENERATION_FAILED: 422,
  EXECUTION_FAILED: 422,

  // SQL execution (section 7).
  GUARDRAIL_VIOLATION: 403,
  SQL_ERROR: 400,
  TIMEOUT: 408,

  // Documents.
  DOCUMENT_REJECTED: 422,

  // Billing and provisioning.
  BILLING_NOT_CONFIGURED: 503,
  PAYMENT_PROVIDER_FAILED: 502,
  WEBHOOK_SIGNATURE_INVALID: 400,
  PROVISION_LIMIT_REACHED: 409,
  PROVISIONING_FAILED: 502,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
