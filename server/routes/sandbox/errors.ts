import type { ErrorFamily, ErrorShape } from '../../errors/families.js'
import { httpReason } from '../../errors/families.js'

/**
 * The control plane's errors (docs/gateway.md §7 "Simple" plus `code`, in English): its family, every
 * path under /__sandbox, and its shape. Not a dialect's: the control plane is the sandbox's own.
 */
export const SANDBOX_SHAPE: ErrorShape = {
  name: 'sandbox',
  schemaId: 'SandboxError',
  headers: () => ({ 'content-type': 'application/json; charset=utf-8' }),
  body: answer => {
    const messages = answer.english ?? answer.messages
    return { statusCode: answer.status, message: messages.join('; '), error: httpReason[answer.status] ?? 'Error', code: answer.code, ...(answer.details ? { details: answer.details } : {}) }
  },
}

export const CONTROL_PLANE: ErrorFamily = {
  name: 'sandbox',
  answers: {
    INVALID_REQUEST: 400,
    ROUTE_NOT_FOUND: 404,
    BODY_TOO_LARGE: 413,
    URI_TOO_LONG: 414,
    UNSUPPORTED_MEDIA_TYPE: 415,
    ADMIN_TOKEN_REQUIRED: 401,
    STORAGE_UNAVAILABLE: 503,
    INTERNAL_ERROR: 500,
    NOT_FOUND: 404,
    ACCOUNT_NOT_FOUND: 404,
    TRANSACTION_NOT_FOUND: 404,
    CHARGE_NOT_FOUND: 404,
    MED_NOT_FOUND: 404,
    KEY_NOT_FOUND: 404,
    WEBHOOK_NOT_FOUND: 404,
    DELIVERY_NOT_FOUND: 404,
    REQUEST_NOT_FOUND: 404,
    SCENARIO_NOT_FOUND: 404,
    PIX_INVALID_AMOUNT: 400,
    PIX_AMOUNT_MISMATCH: 400,
    QRCODE_ALREADY_PAID: 422,
    QRCODE_NOT_AVAILABLE: 422,
    INVALID_PIX_CODE: 400,
    ACCOUNT_LIMIT_REACHED: 422,
    REFUND_NOT_ALLOWED: 409,
    REFUND_AMOUNT_EXCEEDS_ORIGINAL: 400,
    MED_ALREADY_OPEN: 409,
    MED_INVALID_TRANSITION: 409,
    MED_ANALYSIS_REQUIRED: 400,
    MED_ANALYSIS_NOT_ALLOWED: 400,
    REC_INVALID_TRANSITION: 409,
    INVALID_WEBHOOK_URL: 400,
    WEBHOOK_URL_IS_SANDBOX: 400,
    INVALID_WEBHOOK_HEADER: 400,
    WEBHOOK_HEADER_NOT_ALLOWED: 400,
    TOO_MANY_WEBHOOK_HEADERS: 400,
    WEBHOOK_LIMIT_REACHED: 400,
    NO_RECEIVER: 409,
    UNKNOWN_SCENARIO: 400,
    INVALID_SCENARIO_PARAMETER: 400,
    INVALID_DOCUMENT: 400,
    INVALID_PIX_KEY: 400,
    INSUFFICIENT_BALANCE: 400,
    BALANCE_LIMIT: 400,
    CLOCK_OUT_OF_RANGE: 400,
    CLOCK_BACKWARDS: 400,
    TRANSACTION_NOT_PENDING: 409,
    VERIFICATION_FAILED: 409,
    WAIT_TIMEOUT: 408,
  },
  claim: path => path.startsWith('/__sandbox') ? '/__sandbox'.length : undefined,
  shapeOf: () => SANDBOX_SHAPE,
  declare: (route, schema) => {
    if (route.url === '/__sandbox/health') return []
    // Optional: only a sandbox started with an admin token asks for it.
    schema.security ??= [{ sandboxAdmin: [] }, {}]
    return [401]
  },
}
