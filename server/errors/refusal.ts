/**
 * A business outcome that refuses a request: a code, its texts and details, and no HTTP status. A
 * service, a webhook rule or a route throws one; the edge (errors/handler.ts) knows the route's family
 * and maps the code to that family's status and body shape through one table (errors/families.ts).
 * A leaf: services import it without knowing HTTP or Fastify.
 */
export type CoreCode =
  // Generic refusals: the gateway reports each as HTTP_ERROR (docs/gateway.md §7); the code says which.
  | 'INVALID_REQUEST'
  | 'INVALID_CREDENTIALS'
  | 'CERTIFICATE_NOT_LINKED'
  | 'UNSUPPORTED_GRANT_TYPE'
  | 'INVALID_SCOPE'
  | 'ROUTE_NOT_FOUND'
  | 'BODY_TOO_LARGE'
  | 'URI_TOO_LONG'
  | 'UNSUPPORTED_MEDIA_TYPE'
  // Access and availability.
  | 'UNAUTHORIZED'
  | 'ACCESS_DENIED'
  | 'ADMIN_TOKEN_REQUIRED'
  | 'RATE_LIMITED'
  | 'SERVICE_UNAVAILABLE'
  | 'STORAGE_UNAVAILABLE'
  | 'INTERNAL_ERROR'
  // Records that are not there.
  | 'NOT_FOUND'
  | 'ACCOUNT_NOT_FOUND'
  | 'TRANSACTION_NOT_FOUND'
  | 'CHARGE_NOT_FOUND'
  | 'MED_NOT_FOUND'
  | 'KEY_NOT_FOUND'
  | 'WEBHOOK_NOT_FOUND'
  | 'DELIVERY_NOT_FOUND'
  | 'REQUEST_NOT_FOUND'
  | 'SCENARIO_NOT_FOUND'
  // Pay-outs (docs/gateway.md §7.2, 7.3, 7.6).
  | 'PIX_INVALID_AMOUNT'
  | 'PIX_INVALID_PIX_KEY'
  | 'PIX_DUPLICATE_EXTERNAL_ID'
  | 'QRCODE_DUPLICATE_EXTERNAL_ID'
  | 'PIX_INSUFFICIENT_BALANCE'
  | 'PIX_TRANSACTION_LIMIT_EXCEEDED'
  | 'PIX_DAILY_LIMIT_EXCEEDED'
  | 'PIX_NIGHT_LIMIT_EXCEEDED'
  | 'PIX_AMOUNT_MISMATCH'
  | 'QRCODE_ALREADY_PAID'
  | 'QRCODE_NOT_AVAILABLE'
  | 'PROVIDER_REJECTED'
  | 'ISPB_DENIED'
  // Charges (docs/gateway.md §7.4, 7.7).
  | 'PIX_SPLIT_AMOUNT_EXCEEDED'
  | 'PROVIDER_EXPIRATION_BELOW_MINIMUM'
  | 'PROVIDER_UNAVAILABLE'
  | 'COB_TXID_EXISTS'
  | 'COB_NOT_ACTIVE'
  | 'PAYLOAD_GONE'
  | 'INVALID_PIX_CODE'
  | 'ACCOUNT_LIMIT_REACHED'
  // Refunds and devoluções (docs/gateway.md §7.5, 7.8).
  | 'REFUND_NOT_ALLOWED'
  | 'REFUND_DEADLINE_EXCEEDED'
  | 'REFUND_AMOUNT_EXCEEDS_ORIGINAL'
  | 'DEVOLUCAO_ID_EXISTS'
  // MED.
  | 'MED_ALREADY_OPEN'
  | 'MED_INVALID_TRANSITION'
  | 'MED_ANALYSIS_REQUIRED'
  | 'MED_ANALYSIS_NOT_ALLOWED'
  // Pix Automático's payer side, steered through the control plane.
  | 'REC_INVALID_TRANSITION'
  // Webhook registrations and deliveries (docs/gateway.md §7.11).
  | 'INVALID_WEBHOOK_URL'
  | 'WEBHOOK_URL_IS_SANDBOX'
  | 'INVALID_WEBHOOK_HEADER'
  | 'WEBHOOK_HEADER_NOT_ALLOWED'
  | 'TOO_MANY_WEBHOOK_HEADERS'
  | 'WEBHOOK_LIMIT_REACHED'
  | 'NO_RECEIVER'
  // The control plane's own.
  | 'UNKNOWN_SCENARIO'
  | 'INVALID_SCENARIO_PARAMETER'
  | 'INVALID_DOCUMENT'
  | 'INVALID_PIX_KEY'
  | 'INSUFFICIENT_BALANCE'
  | 'BALANCE_LIMIT'
  | 'CLOCK_OUT_OF_RANGE'
  | 'CLOCK_BACKWARDS'
  | 'TRANSACTION_NOT_PENDING'
  | 'VERIFICATION_FAILED'
  | 'WAIT_TIMEOUT'

/**
 * The codes a dialect adds for refusals of its own, by declaration merging in its folder
 * (`declare module '../../errors/refusal.js' { interface DialectCodes { PAYMENT_NOT_FOUND: true } }`):
 * they answer in that dialect's families, whose columns give them a status.
 */
export interface DialectCodes {}

/** Every outcome a refusal can name: the core's, and those the dialects add. */
export type Code = CoreCode | Extract<keyof DialectCodes, string>

export interface RefusalOptions {
  details?: Record<string, unknown>
  /** The extended shape's `userMessage`, where the family's default for the status does not fit. */
  userMessage?: string
  /**
   * The same text in English, for a refusal the control plane (`/__sandbox/*`) can answer too: the
   * gateway's families speak Portuguese as the gateway does, the control plane English.
   */
  en?: string | string[]
  /**
   * The property each message is about (`valor.original`, `paginacao.paginaAtual`), where it is known:
   * API Pix lists them as `violacoes[].propriedade`. Same order as the messages.
   */
  fields?: ReadonlyArray<string | undefined>
}

export class Refusal extends Error {
  readonly code: Code
  /** One sentence, or one per invalid field (INVALID_REQUEST). */
  readonly messages: string[]
  readonly details?: Record<string, unknown>
  readonly userMessage?: string
  readonly english?: string[]
  readonly fields?: ReadonlyArray<string | undefined>

  constructor (code: Code, message: string | string[], opts: RefusalOptions = {}) {
    const messages = Array.isArray(message) ? message : [message]
    super(messages.join('; '))
    this.name = 'Refusal'
    this.code = code
    this.messages = messages
    this.details = opts.details
    this.userMessage = opts.userMessage
    if (opts.en !== undefined) this.english = Array.isArray(opts.en) ? opts.en : [opts.en]
    if (opts.fields !== undefined) this.fields = opts.fields
  }
}

/** Input that no business rule names: one message per invalid field. */
export const invalidRequest = (message: string | string[], opts?: RefusalOptions): Refusal => new Refusal('INVALID_REQUEST', message, opts)

/** A request over a rate (the MED list's own limit, and the RATE_LIMITED fault), with the seconds to wait. */
export const tooManyRequests = (retryAfterSeconds: number): Refusal =>
  new Refusal('RATE_LIMITED', `Muitas requisições; tente novamente em ${retryAfterSeconds} segundos`, { details: { retryAfterSeconds } })
