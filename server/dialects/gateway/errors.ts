import { randomUUID } from 'node:crypto'
import { Type } from '@sinclair/typebox'
import type { ErrorAnswer, ErrorFamily, ErrorShape } from '../../errors/families.js'
import { httpReason, targetPath } from '../../errors/families.js'
import { publicPath } from '../../errors/handler.js'
import type { Code } from '../../errors/refusal.js'

/**
 * The gateway's errors (docs/gateway.md §1 "Two families on one base URL", §7): its two families, the
 * standard one under /api (and /balance) and the central-bank-compatible one without a prefix, each its
 * column of the error table, and the two shapes the spec names, extended and simple.
 */

export const SimpleError = Type.Object({
  statusCode: Type.Integer(),
  message: Type.String(),
  error: Type.Optional(Type.String()),
}, { $id: 'SimpleError', description: 'Error of the central-bank-compatible family and token issuance (spec 7)' })

export const ExtendedError = Type.Object({
  statusCode: Type.Integer(),
  timestamp: Type.String({ format: 'date-time' }),
  path: Type.String({ description: 'Public route name: the request path without /api' }),
  method: Type.String(),
  code: Type.String({ description: 'HTTP_ERROR or a business code' }),
  message: Type.Union([Type.String(), Type.Array(Type.String())], { description: 'One entry per invalid field on validation errors' }),
  userMessage: Type.String(),
  errorId: Type.String(),
  error: Type.Optional(Type.String()),
  errorCode: Type.Optional(Type.String()),
  details: Type.Optional(Type.Object({}, { additionalProperties: true })),
}, { $id: 'ExtendedError', description: 'Error of the standard family (spec 7)' })

const json = (): Record<string, string> => ({ 'content-type': 'application/json; charset=utf-8' })

/** docs/gateway.md §7, "Simple": `statusCode`, `message` and `error`. */
export const SIMPLE: ErrorShape = {
  name: 'simple',
  schemaId: 'SimpleError',
  headers: json,
  body: answer => ({ statusCode: answer.status, message: answer.messages.join('; '), error: httpReason[answer.status] ?? 'Error' }),
}

const userMessages: Record<number, string> = {
  400: 'Não foi possível processar a solicitação. Verifique os dados enviados.',
  401: 'Não autorizado. Obtenha um novo token de acesso.',
  403: 'Acesso negado.',
  404: 'Recurso não encontrado.',
  409: 'Conflito com um recurso existente.',
  413: 'A requisição é grande demais.',
  414: 'O endereço da requisição é longo demais.',
  415: 'Tipo de conteúdo não suportado.',
  422: 'A solicitação foi recusada pelo provedor de pagamento.',
  429: 'Muitas requisições. Aguarde alguns segundos e tente novamente.',
  500: 'Erro interno. Tente novamente mais tarde.',
}

/** docs/gateway.md §7, "Extended": `code` is HTTP_ERROR for generic errors or the business code (then also `errorCode`). */
export const EXTENDED: ErrorShape = {
  name: 'extended',
  schemaId: 'ExtendedError',
  headers: json,
  body: (answer: ErrorAnswer, request) => {
    const reason = httpReason[answer.status] ?? 'Error'
    const body: Record<string, unknown> = {
      statusCode: answer.status,
      timestamp: new Date(request.server.sandbox.clock.now()).toISOString(),
      path: publicPath(targetPath(request.url)),
      method: request.method,
      code: answer.generic ? 'HTTP_ERROR' : answer.code,
      // Validation errors list one message per invalid field; everything else is one sentence.
      message: answer.code === 'HTTP_ERROR' && answer.status === 400 ? answer.messages : answer.messages.join('; '),
      userMessage: answer.userMessage ?? userMessages[answer.status] ?? reason,
      errorId: randomUUID(),
    }
    if (answer.generic) body.error = reason
    else body.errorCode = answer.code
    if (answer.details) body.details = answer.details
    return body
  },
}

/**
 * Each outcome the gateway can meet: [its status in the standard family, in the central-bank-compatible
 * one]; null where that family cannot meet it.
 */
const STATUSES: Partial<Record<Code, readonly [number | null, number | null]>> = {
  INVALID_REQUEST: [400, 400],
  // The token (docs/gateway.md §7.1): a certificate or credentials that do not check out, a certificate of another account.
  INVALID_CREDENTIALS: [401, null],
  CERTIFICATE_NOT_LINKED: [403, null],
  ROUTE_NOT_FOUND: [404, 404],
  BODY_TOO_LARGE: [413, 413],
  URI_TOO_LONG: [414, 414],
  UNSUPPORTED_MEDIA_TYPE: [415, 415],
  UNAUTHORIZED: [401, 401],
  // On the gateway, a token of /oauth/token issued for scopes that do not cover the route (docs/api-pix.md, Scopes).
  ACCESS_DENIED: [403, 403],
  RATE_LIMITED: [429, 429],
  SERVICE_UNAVAILABLE: [503, 503],
  STORAGE_UNAVAILABLE: [503, 503],
  INTERNAL_ERROR: [500, 500],
  NOT_FOUND: [404, 404],
  ACCOUNT_NOT_FOUND: [404, null],
  TRANSACTION_NOT_FOUND: [404, null],
  // Paying a key the directory does not hold is the provider's refusal (docs/gateway.md §7.6).
  KEY_NOT_FOUND: [null, 422],
  WEBHOOK_NOT_FOUND: [404, null],
  PIX_INVALID_AMOUNT: [400, null],
  PIX_INVALID_PIX_KEY: [400, null],
  PIX_DUPLICATE_EXTERNAL_ID: [400, null],
  // The same refusal as PIX_DUPLICATE_EXTERNAL_ID, which the cash-out by QR code answers with 409
  // (docs/gateway.md §7.3) where the cash-out, the cash-in and the refund-in answer 400 (§7.2): the
  // endpoint, not the family, picks the status, so the outcome has a name of its own and the wire the gateway's.
  QRCODE_DUPLICATE_EXTERNAL_ID: [409, null],
  // 400 in the standard family (docs/gateway.md §7.2, 7.5), 422 in the central-bank-compatible one (§7.6, and the devolução).
  PIX_INSUFFICIENT_BALANCE: [400, 422],
  PIX_TRANSACTION_LIMIT_EXCEEDED: [400, null],
  PIX_DAILY_LIMIT_EXCEEDED: [400, null],
  PIX_NIGHT_LIMIT_EXCEEDED: [400, null],
  QRCODE_ALREADY_PAID: [422, null],
  QRCODE_NOT_AVAILABLE: [422, null],
  PROVIDER_REJECTED: [422, null],
  ISPB_DENIED: [null, 422],
  PIX_SPLIT_AMOUNT_EXCEEDED: [400, null],
  PROVIDER_EXPIRATION_BELOW_MINIMUM: [400, null],
  PROVIDER_UNAVAILABLE: [500, null],
  COB_TXID_EXISTS: [null, 409],
  COB_NOT_ACTIVE: [null, 409],
  // The refund-in refuses a payment it cannot refund as invalid data (docs/gateway.md §7.5).
  REFUND_NOT_ALLOWED: [400, null],
  // 400 on the refund-in (docs/gateway.md §7.5), 422 on the devolução (§7.8).
  REFUND_DEADLINE_EXCEEDED: [400, 422],
  REFUND_AMOUNT_EXCEEDS_ORIGINAL: [400, 400],
  DEVOLUCAO_ID_EXISTS: [null, 409],
  INVALID_WEBHOOK_URL: [400, null],
  WEBHOOK_URL_IS_SANDBOX: [400, null],
  INVALID_WEBHOOK_HEADER: [400, null],
  WEBHOOK_HEADER_NOT_ALLOWED: [400, null],
  TOO_MANY_WEBHOOK_HEADERS: [400, null],
  WEBHOOK_LIMIT_REACHED: [400, null],
  UNKNOWN_SCENARIO: [400, 400],
  INVALID_SCENARIO_PARAMETER: [400, 400],
}

const column = (i: 0 | 1): Partial<Record<Code, number>> =>
  Object.fromEntries(Object.entries(STATUSES).flatMap(([code, statuses]) => statuses![i] === null ? [] : [[code, statuses![i]]]))

/** Where the gateway's token is asked for: a route of the standard family that answers in the simple shape (docs/gateway.md §7). */
const TOKEN_PATH = '/api/auth/token'

/** An unknown X-Sandbox-Scenario (400); behind a bearer token, a token of /oauth/token whose scopes do not cover the route (403). */
const declare: ErrorFamily['declare'] = route => (route.config as { auth?: boolean } | undefined)?.auth === true ? [400, 403] : [400]

/** The standard family: /api/* (and /balance), the extended shape (the token's, simple). */
export const STANDARD: ErrorFamily = {
  name: 'standard',
  answers: column(0),
  claim: path => path.startsWith('/api/') ? '/api/'.length : path === '/balance' ? path.length : undefined,
  shapeOf: path => path === TOKEN_PATH ? SIMPLE : EXTENDED,
  declare,
}

/** The central-bank-compatible family: every other path of the gateway, without a prefix, in the simple shape. */
export const CENTRAL_BANK: ErrorFamily = {
  name: 'central-bank',
  answers: column(1),
  claim: () => 0,
  shapeOf: () => SIMPLE,
  declare,
}
