import { createHash, createPrivateKey, generateKeyPairSync, type JsonWebKey } from 'node:crypto'
import { createSigner } from 'fast-jwt'
import type { SigningKey } from '../store/state.js'
import type { Lifecycle, Ports } from '../ports.js'
import { Cache, type Derived } from '../store/derived.js'
import { iso } from './history.js'

/**
 * The signature of API Pix's payloads (docs/api-pix.md, "Payload locations and the key"): a JWS,
 * ES256 (ECDSA P-256 with SHA-256, one of the algorithms BACEN's security manual allows), whose header
 * names its key (`kid`, the key's RFC 7638 thumbprint) and where the key is published (`jku`, a JWKS
 * URL at the location's host). The key is made the first time a payload needs one and kept in the
 * state (`signingKeys`), so a restart with --data signs with the same key; a full reset makes a new one.
 */

/** The public half of the key, as the JWKS publishes it (RFC 7517). */
export interface PublicJwk { kty: 'EC', crv: 'P-256', x: string, y: string, kid: string, use: 'sig', alg: 'ES256' }

/** RFC 7638: the SHA-256 of the members that define the key, in lexical order, base64url. */
function thumbprint (jwk: { crv: string, kty: string, x: string, y: string }): string {
  return createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })).digest('base64url')
}

export class PayloadSigner implements Lifecycle {
  /** fast-jwt signers of the key in use, by `jku` (the header is fixed per signer); dropped whenever the state is replaced. */
  private signers = new Map<string, (payload: Record<string, unknown>) => string>()
  /** The signers go whenever the keys change under them: a load, an import, a reset, a rollback that took back a key made in it. */
  readonly derived: readonly Derived[] = [new Cache('signingKeys', () => this.signers.clear())]

  constructor (private readonly deps: Pick<Ports, 'store' | 'clock'>) {}

  /** The key in use: the newest of the state's, made (and kept) now when there is none. */
  key (): SigningKey {
    const keys = Object.values(this.deps.store.data.signingKeys)
    if (keys.length > 0) return keys.reduce((a, b) => (a.createdAt >= b.createdAt ? a : b))
    // The operating system's randomness, as for credentials: a key drawn from the seed could be computed by anyone who knows it.
    const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }) as Required<Pick<JsonWebKey, 'x' | 'y' | 'd'>>
    const privateJwk = { kty: 'EC' as const, crv: 'P-256' as const, x: jwk.x, y: jwk.y, d: jwk.d }
    return this.deps.store.transact(() => this.deps.store.add('signingKeys', { id: thumbprint(privateJwk), alg: 'ES256', privateJwk, createdAt: iso(this.deps.clock.now()) }))
  }

  /** A payload signed as a compact JWS whose header says where to find the key (`jku`). */
  sign (payload: Record<string, unknown>, jku: string): string {
    let sign = this.signers.get(jku)
    if (sign === undefined) {
      const key = this.key()
      const pem = createPrivateKey({ key: { ...key.privateJwk }, format: 'jwk' }).export({ format: 'pem', type: 'pkcs8' }).toString()
      sign = createSigner({ key: pem, algorithm: 'ES256', kid: key.id, noTimestamp: true, header: { alg: 'ES256', typ: 'JWS', kid: key.id, jku } })
      // Bounded: jku follows the host a payer used, which a client chooses.
      if (this.signers.size >= 100) this.signers.clear()
      this.signers.set(jku, sign)
    }
    return sign(payload)
  }

  /** The JWK Set a payer's PSP fetches from `jku`: every key of the state, public halves only. */
  jwks (): { keys: PublicJwk[] } {
    return {
      keys: Object.values(this.deps.store.data.signingKeys).map(k => ({ kty: 'EC', crv: 'P-256', x: k.privateJwk.x, y: k.privateJwk.y, kid: k.id, use: 'sig', alg: 'ES256' })),
    }
  }
}
