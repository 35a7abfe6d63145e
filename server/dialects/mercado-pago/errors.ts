import { Type } from '@sinclair/typebox'
import type { ErrorAnswer, ErrorFamily, ErrorShape } from '../../errors/families.js'
import { Refusal } from '../../errors/refusal.js'

/**
 * Mercado Pago's errors (docs/mercado-pago.md, Errors): `{ message, error, status, cause: [{ code,
 * description, data }] }`, with its own numeric codes. A refusal of the dialect carries its whole body
 * (`mercadoPagoError`); the core's outcomes (a fault, a body Fastify could not read) are answered in the
 * same shape.
 */

export const MercadoPagoError = Type.Object({
  message: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  status: Type.Optional(Type.Integer()),
  cause: Type.Optional(Type.Array(Type.Object({
    code: Type.Integer(),
    description: Type.String(),
    data: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  }, { additionalProperties: true }))),
}, { $id: 'MercadoPagoError', additionalProperties: true, description: 'Error of Mercado Pago\'s payments API' })

declare module '../../errors/refusal.js' {
  interface DialectCodes {
    /** A 400 of Mercado Pago's with its own cause code. */
    MP_BAD_REQUEST: true
    /** A 404 of Mercado Pago's (payment or refund not found). */
    MP_NOT_FOUND: true
    /** An idempotency key reused for another request (409). */
    MP_IDEMPOTENCY_CONFLICT: true
    /** An idempotency key whose first request is still under way (423). */
    MP_RESOURCE_LOCKED: true
    /** Its PolicyAgent's refusal (403, the scenario POLICY_AGENT_UNAUTHORIZED). */
    MP_POLICY_UNAUTHORIZED: true
  }
}

type MpCode = 'MP_BAD_REQUEST' | 'MP_NOT_FOUND' | 'MP_IDEMPOTENCY_CONFLICT' | 'MP_RESOURCE_LOCKED' | 'MP_POLICY_UNAUTHORIZED' | 'UNAUTHORIZED'

/** A refusal answered with exactly this body. */
function refusal (code: MpCode, status: number, body: Record<string, unknown>): Refusal {
  return new Refusal(code, String(body.message), { details: { mercadoPagoError: { ...body, status } } })
}

/** A 400 `bad_request` whose cause is one documented code. */
export const badRequest = (causeCode: number, message: string): Refusal =>
  refusal('MP_BAD_REQUEST', 400, { message, error: 'bad_request', cause: [{ code: causeCode, description: message, data: null }] })

export const paymentNotFound = (): Refusal =>
  refusal('MP_NOT_FOUND', 404, { message: 'Payment not found', error: 'not_found', cause: [{ code: 2000, description: 'Payment not found', data: null }] })

export const refundNotFound = (): Refusal =>
  refusal('MP_NOT_FOUND', 404, { message: 'Refund not found', error: 'not_found', cause: [{ code: 2032, description: 'Refund not found', data: null }] })

/** No token (or an empty one): code 5. */
export const missingToken = (): Refusal => refusal('UNAUTHORIZED', 401, {
  message: 'Must provide your access_token to proceed',
  error: 'unauthorized',
  cause: [{ code: 5, description: 'Must provide your access_token to proceed', data: null }],
})

/** A token no account has: `not_found` on a 401, no cause, as production answers. */
export const invalidToken = (): Refusal => refusal('UNAUTHORIZED', 401, { message: 'invalid access token', error: 'not_found' })

/** The same idempotency key with another request. */
export const idempotencyConflict = (): Refusal =>
  refusal('MP_IDEMPOTENCY_CONFLICT', 409, { message: 'Idempotency key already used with a different request', error: 'idempotency_key_already_used', cause: [] })

/** The same idempotency key while its first request is still under way (the research's reading of the Orders API's 423, docs/assumptions.md). */
export const resourceLocked = (): Refusal => refusal('MP_RESOURCE_LOCKED', 423, { message: 'resource locked', error: 'resource_locked', cause: [] })

/** Its PolicyAgent's 403, in its own keys (no `error`, no `cause`: both SDKs read `message`). */
export const policyUnauthorized = (): Refusal =>
  refusal('MP_POLICY_UNAUTHORIZED', 403, { message: 'At least one policy returned UNAUTHORIZED.', code: 'PA_UNAUTHORIZED_RESULT_FROM_POLICIES', blocked_by: 'PolicyAgent' })

/**
 * A Pix refund held in process (contingency) answered to a client that did not send
 * `X-Render-In-Process-Refunds: true`: the refund goes on, the answer is a 400 whose body the docs do not
 * give (docs/assumptions.md, Mercado Pago).
 */
export const refundInProcess = (): Refusal =>
  refusal('MP_BAD_REQUEST', 400, { message: 'The refund is in process', error: 'bad_request', cause: [] })

/** The header is required on the POSTs (U+2019 in "can’t", as production writes it). */
export const missingIdempotencyKey = (): Refusal => badRequest(4292, 'Header X-Idempotency-Key can’t be null')

const ERROR_NAMES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  404: 'not_found',
  413: 'request_entity_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
  500: 'internal_server_error',
  503: 'service_unavailable',
}
const MESSAGES: Record<number, string> = { 429: 'Too many requests', 500: 'Internal server error', 503: 'Service unavailable' }

/** The body of any answer: the refusal's own, else the outcome in Mercado Pago's shape. */
function bodyOf (answer: ErrorAnswer): Record<string, unknown> {
  const own = answer.details?.mercadoPagoError
  if (own !== undefined && own !== null && typeof own === 'object') return own as Record<string, unknown>
  if (answer.outcome === 'ROUTE_NOT_FOUND') {
    return { error: 'resource not found', message: 'Si quieres conocer los recursos de la API que se encuentran disponibles visita el Sitio de Desarrolladores de MercadoLibre (https://developers.mercadopago.com)' }
  }
  const message = MESSAGES[answer.status] ?? (answer.english ?? answer.messages).join('; ')
  const cause = answer.status === 400 ? [{ code: 1, description: message, data: null }] : []
  return { message, error: ERROR_NAMES[answer.status] ?? 'error', status: answer.status, cause }
}

export const MERCADO_PAGO_SHAPE: ErrorShape = {
  name: 'mercado-pago',
  schemaId: 'MercadoPagoError',
  headers: () => ({ 'content-type': 'application/json; charset=utf-8' }),
  body: answer => bodyOf(answer),
}

export const PAYMENTS_PREFIX = '/v1/payments'

/** Its family: every path under /v1/payments and its ticket pages, its column of the error table. */
export const MERCADO_PAGO_FAMILY: ErrorFamily = {
  name: 'mercado-pago',
  answers: {
    INVALID_REQUEST: 400,
    UNAUTHORIZED: 401,
    ROUTE_NOT_FOUND: 404,
    BODY_TOO_LARGE: 413,
    URI_TOO_LONG: 414,
    UNSUPPORTED_MEDIA_TYPE: 415,
    UNKNOWN_SCENARIO: 400,
    INVALID_SCENARIO_PARAMETER: 400,
    RATE_LIMITED: 429,
    SERVICE_UNAVAILABLE: 503,
    STORAGE_UNAVAILABLE: 503,
    INTERNAL_ERROR: 500,
    MP_BAD_REQUEST: 400,
    MP_NOT_FOUND: 404,
    MP_IDEMPOTENCY_CONFLICT: 409,
    MP_RESOURCE_LOCKED: 423,
    MP_POLICY_UNAUTHORIZED: 403,
  },
  claim: path => path.startsWith(`${PAYMENTS_PREFIX}/`) || path === PAYMENTS_PREFIX
    ? PAYMENTS_PREFIX.length
    : path.startsWith('/mercadopago/') ? '/mercadopago'.length : undefined,
  shapeOf: () => MERCADO_PAGO_SHAPE,
  // Its token on every route (401), an unknown X-Sandbox-Scenario and invalid input (400).
  declare: route => typeof route.url === 'string' && route.url.startsWith('/mercadopago/') ? [400] : [400, 401],
}
