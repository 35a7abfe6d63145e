import { Type, type TSchema, type TUnsafe } from '@sinclair/typebox'
import type { ErrorShape } from '../errors/families.js'
import { DOCUMENT_FORMAT } from '../domain/documents.js'

/**
 * Schema pieces shared by every family. String enums are plain `enum` schemas (not unions of
 * literals) so a wrong value yields one clear message listing the accepted values.
 */
export function StringEnum<const T extends readonly string[]> (values: T, opts: Record<string, unknown> = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...opts })
}

/** A BRL amount as a JSON number. Exactness to the cent is checked by domain/money (PIX_INVALID_AMOUNT). */
export const Amount = (opts: Record<string, unknown> = {}) => Type.Number({ minimum: 0.01, description: 'BRL, at most 2 decimals', ...opts })

/**
 * A record's numeric id as a request names it (an account, a webhook, a MED, a journal entry): a safe
 * positive integer, so no request makes a key, a lookup or a message of 1.5, 1e300 or Infinity (which a
 * query string coerces to and an integer without a maximum lets through).
 */
export const RecordId = (opts: Record<string, unknown> = {}) => Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, ...opts })

/** A count a request asks for (how many times, at least, at most): a safe non-negative integer. */
export const Count = (opts: Record<string, unknown> = {}) => Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, ...opts })

/** A CPF (11 digits) or CNPJ (14) with valid check digits, as a validation error of the field when it is not. */
export const Document = (opts: Record<string, unknown> = {}) => Type.String({ minLength: 1, maxLength: 14, format: DOCUMENT_FORMAT, ...opts })

export const IsoDate = (description?: string) => Type.String({ format: 'date-time', description })

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

export const SandboxError = Type.Object({
  statusCode: Type.Integer(),
  code: Type.String(),
  message: Type.String(),
  error: Type.Optional(Type.String()),
  details: Type.Optional(Type.Object({}, { additionalProperties: true })),
}, { $id: 'SandboxError', description: 'Error of the /__sandbox control plane' })

export const ApiPixProblem = Type.Object({
  type: Type.String({ description: 'https://pix.bcb.gov.br/api/v2/error/<TipoErro>' }),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.Optional(Type.String()),
  correlationId: Type.Optional(Type.String()),
  violacoes: Type.Optional(Type.Array(Type.Object({
    razao: Type.Optional(Type.String()),
    propriedade: Type.Optional(Type.String()),
    valor: Type.Optional(Type.String()),
  }))),
}, { $id: 'ApiPixProblem', description: 'Error of BACEN\'s API Pix (RFC 7807 problem details, application/problem+json)' })

export const OAuthError = Type.Object({
  error: StringEnum(['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_scope', 'server_error', 'temporarily_unavailable'] as const),
  error_description: Type.Optional(Type.String()),
}, { $id: 'OAuthError', description: 'Error of API Pix\'s OAuth token (RFC 6749 section 5.2)' })

export const sharedSchemas: TSchema[] = [SimpleError, ExtendedError, SandboxError, ApiPixProblem, OAuthError]

const ref = (id: string) => Type.Unsafe<unknown>({ $ref: `${id}#` })

/**
 * The error body of each shape (docs/gateway.md §7): extended, simple, and simple plus `code` for the
 * control plane; problem details for API Pix and RFC 6749's error for its token.
 */
const ERROR_SCHEMA: Record<ErrorShape, string> = { standard: 'ExtendedError', 'central-bank': 'SimpleError', sandbox: 'SandboxError', 'api-pix': 'ApiPixProblem', oauth: 'OAuthError' }

/** Response map entries for the usual errors of a shape, so OpenAPI documents them (API Pix's as application/problem+json). */
export function errorResponses (shape: ErrorShape, codes: number[]): Record<number, TSchema> {
  const id = ERROR_SCHEMA[shape]
  const response = shape === 'api-pix'
    ? Type.Unsafe<unknown>({ description: 'Problem details', content: { 'application/problem+json': { schema: ref(id) } } })
    : ref(id)
  return Object.fromEntries(codes.map(c => [c, response]))
}
