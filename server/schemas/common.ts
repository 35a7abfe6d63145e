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

export const SandboxError = Type.Object({
  statusCode: Type.Integer(),
  code: Type.String(),
  message: Type.String(),
  error: Type.Optional(Type.String()),
  details: Type.Optional(Type.Object({}, { additionalProperties: true })),
}, { $id: 'SandboxError', description: 'Error of the /__sandbox control plane' })

const ref = (id: string) => Type.Unsafe<unknown>({ $ref: `${id}#` })

/**
 * Response map entries for the usual errors of a shape (its schema's component; problem details as
 * application/problem+json), so OpenAPI documents them.
 */
export function errorResponses (shape: Pick<ErrorShape, 'schemaId' | 'mediaType'>, codes: number[]): Record<number, TSchema> {
  const response = shape.mediaType !== undefined
    ? Type.Unsafe<unknown>({ description: 'Problem details', content: { [shape.mediaType]: { schema: ref(shape.schemaId) } } })
    : ref(shape.schemaId)
  return Object.fromEntries(codes.map(c => [c, response]))
}
