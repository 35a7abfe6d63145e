import { Type } from '@sinclair/typebox'
import { Instant, Id, Text, Open, OneOf } from './schema.js'

/** API Pix's payload locations and the key that signs their payloads (docs/api-pix.md), owned by LocationService and PayloadSigner. */

/**
 * A payload location of API Pix: the URL (without scheme) where payers' PSPs read a charge's signed
 * payload, `<host>/qr/v2/<token>`. Its id comes from the `loc` sequence the gateway's cobs also draw
 * their loc.id from; it serves the charge it is bound to, when it is.
 */
export const PayloadLocationSchema = Open({
  id: Id,
  accountId: Id,
  tipoCob: OneOf(['cob', 'cobv'] as const),
  /** At most 77 characters, as API Pix allows; its last segment is the token that finds it. */
  location: Type.String({ minLength: 1, maxLength: 77 }),
  createdAt: Instant,
  /** The transaction of the charge it serves; absent while it serves none (created alone, or unbound). */
  chargeId: Type.Optional(Type.String({ minLength: 1 })),
})

/**
 * The key that signs payloads (ES256), kept in the state so that a restart with --data signs with the
 * same key and the JWKS a payer's PSP fetched stays good. The public part is what GET /.well-known/jwks.json
 * publishes; `id` is the key's `kid`.
 */
export const SigningKeySchema = Open({
  id: Type.String({ minLength: 1 }),
  alg: Type.Literal('ES256'),
  privateJwk: Open({ kty: Type.Literal('EC'), crv: Type.Literal('P-256'), x: Text, y: Text, d: Text }),
  createdAt: Instant,
})
