import { createHash } from 'node:crypto'
import { isValidCnpj, isValidCpf } from '../../domain/documents.js'
import { parseInstant } from '../../domain/instant.js'
import { parseAmount } from '../../domain/money.js'
import { badRequest } from './errors.js'

/**
 * What POST /v1/payments accepts for Pix (docs/mercado-pago.md, Create; the decisions of
 * docs/assumptions.md, Mercado Pago): each rule refuses with Mercado Pago's own cause code, first
 * problem first, before anything is written.
 */

const MINUTE = 60_000
export const DEFAULT_EXPIRATION_MS = 24 * 60 * MINUTE
export const MIN_EXPIRATION_MS = 30 * MINUTE
export const MAX_EXPIRATION_MS = 30 * 24 * 60 * MINUTE
const NOTIFICATION_URL_MAX = 248

/** Every top-level field the API takes (the rest is code 8); most are accepted and ignored for Pix. */
const KNOWN_FIELDS = new Set([
  'transaction_amount', 'payment_method_id', 'payer', 'description', 'date_of_expiration', 'notification_url',
  'external_reference', 'metadata', 'statement_descriptor', 'additional_info', 'installments', 'binary_mode',
  'capture', 'callback_url', 'sponsor_id', 'application_fee', 'coupon_amount', 'campaign_id', 'coupon_code',
  'differential_pricing_id', 'issuer_id', 'token', 'point_of_interaction', 'transaction_details', 'payment_method',
  'three_d_secure_mode', 'forward_data', 'payment_type_id', 'net_amount', 'taxes', 'processing_mode', 'merchant_account_id',
])

export interface PaymentRequest {
  amountCents: number
  expiresAt: number
  description?: string
  email: string
  firstName?: string
  lastName?: string
  identification?: { type: string, number: string }
  notificationUrl?: string
  externalReference?: string
  statementDescriptor?: string
  metadata: Record<string, unknown>
  additionalInfo?: Record<string, unknown>
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const text = (v: unknown, max = 600): string | undefined => typeof v === 'string' ? v.slice(0, max) : undefined

/** camelCase keys to snake_case, at every depth, as Mercado Pago stores metadata. */
export function snakeKeys (value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys)
  if (!isObject(value)) return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(), snakeKeys(v)]))
}

/** The body of a creation, read and checked; `now` is the sandbox clock. */
export function readPaymentRequest (body: unknown, now: number): PaymentRequest {
  if (!isObject(body)) throw badRequest(4002, 'Transaction_amount attribute can\'t be null.')
  const unknown = Object.keys(body).filter(k => !KNOWN_FIELDS.has(k))
  if (unknown.length > 0) throw badRequest(8, `The name of the following parameters is wrong [${unknown.join(', ')}]`)
  const method = body.payment_method_id
  if (method === undefined || method === null) throw badRequest(4001, 'Payment_method_id attribute can\'t be null.')
  if (method !== 'pix') throw badRequest(3028, 'Invalid payment_method_id.')
  const amount = body.transaction_amount
  if (amount === undefined || amount === null) throw badRequest(4002, 'Transaction_amount attribute can\'t be null.')
  if (typeof amount !== 'number') throw badRequest(4003, 'Transaction_amount attribute must be numeric.')
  const parsed = parseAmount(amount)
  if (!parsed.ok) throw parsed.reason === 'TOO_MANY_DECIMALS' ? badRequest(4037, 'Invalid transaction_amount.') : badRequest(2072, 'Invalid value for transaction_amount.')
  const payer = body.payer
  if (!isObject(payer)) throw badRequest(4006, 'Payer attribute is malformed.')
  const email = payer.email
  if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw badRequest(4050, 'Payer.email must be a valid email.')
  if (email.length >= 254) throw badRequest(4051, 'Payer.email must be shorter than 254 characters.')
  let identification: PaymentRequest['identification']
  if (payer.identification !== undefined && payer.identification !== null) {
    const id = payer.identification
    const type = isObject(id) ? id.type : undefined
    const digits = isObject(id) && typeof id.number === 'string' ? id.number.replace(/[.\-/\s]/g, '') : ''
    const valid = type === 'CPF' ? isValidCpf(digits) : type === 'CNPJ' ? isValidCnpj(digits) : false
    if (!valid) throw badRequest(2067, 'Invalid user identification number.')
    identification = { type: type as string, number: digits }
  }
  const expiresAt = body.date_of_expiration !== undefined && body.date_of_expiration !== null ? readExpiration(body.date_of_expiration, now) : now + DEFAULT_EXPIRATION_MS
  let notificationUrl: string | undefined
  if (body.notification_url !== undefined && body.notification_url !== null) {
    const url = body.notification_url
    if (typeof url !== 'string' || !isHttpUrl(url)) throw badRequest(4020, 'Notification_url attribute must be a valid URL.')
    if (url.length > NOTIFICATION_URL_MAX) throw badRequest(4021, 'Notification_url attribute must be shorter than 500 characters.')
    notificationUrl = url
  }
  const metadata = body.metadata ?? {}
  if (!isObject(metadata)) throw badRequest(4022, 'Metadata attribute must be a valid JSON.')
  return {
    amountCents: parsed.cents,
    expiresAt,
    ...(typeof body.description === 'string' ? { description: body.description.slice(0, 600) } : {}),
    email,
    ...(text(payer.first_name) !== undefined ? { firstName: text(payer.first_name) } : {}),
    ...(text(payer.last_name) !== undefined ? { lastName: text(payer.last_name) } : {}),
    ...(identification !== undefined ? { identification } : {}),
    ...(notificationUrl !== undefined ? { notificationUrl } : {}),
    ...(text(body.external_reference) !== undefined ? { externalReference: text(body.external_reference) } : {}),
    ...(text(body.statement_descriptor) !== undefined ? { statementDescriptor: text(body.statement_descriptor) } : {}),
    metadata: snakeKeys(metadata) as Record<string, unknown>,
    ...(isObject(body.additional_info) ? { additionalInfo: body.additional_info } : {}),
  }
}

/** A date_of_expiration given (at creation, or to move a pending payment's): 30 minutes to 30 days from `now`. */
export function readExpiration (value: unknown, now: number): number {
  const at = typeof value === 'string' ? parseInstant(value) : null
  if (at === null) throw badRequest(23, 'The following parameters must be valid date and format (yyyy-MM-dd\'T\'HH:mm:ssz) date_of_expiration')
  if (at - now < MIN_EXPIRATION_MS || at - now > MAX_EXPIRATION_MS) throw badRequest(7523, 'Invalid expiration date.')
  return at
}

function isHttpUrl (value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

/** A JSON value written with its keys sorted, hashed: two bodies that say the same thing have the same digest. */
export function requestDigest (value: unknown): string {
  const canonical = JSON.stringify(value ?? {}, (_key, v: unknown) => isObject(v)
    ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0))
    : v)
  return createHash('sha256').update(canonical).digest('hex')
}

/** The payer id Mercado Pago shows for a guest payer: digits, stable per email within the account. */
export function guestPayerId (accountId: number, email: string): string {
  const digest = createHash('sha256').update(`${accountId}:${email.toLowerCase()}`).digest()
  return String(1_000_000_000 + (digest.readUInt32BE(0) % 1_000_000_000))
}
