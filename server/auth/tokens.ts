import { createSigner, createVerifier } from 'fast-jwt'

/**
 * Access tokens: HS256 JWTs that live 1800 s of sandbox time (docs/gateway.md §2.1, 5.5). Expiry is checked
 * against the sandbox clock, not the wall clock, so advancing the clock expires tokens as it would
 * in production.
 */
export const TOKEN_LIFETIME_SECONDS = 1800

/**
 * The id (jti) of a token the control plane issued for the sandbox's own tools (the CLI's `token`):
 * the integration report grades how an integration handles its own tokens, not these. A jti is part of
 * the signed token, so no request can pass one of its own tokens off as one of these.
 */
const TOOL_TOKEN_PREFIX = 'tool-'

export const toolTokenId = (uuid: string): string => `${TOOL_TOKEN_PREFIX}${uuid}`
export const isToolToken = (jti: string): boolean => jti.startsWith(TOOL_TOKEN_PREFIX)

export interface TokenClaims {
  sub: string
  clientId: string
  /** The incarnation of the account the token was issued to (store/state.ts); absent where the account had none. */
  inc?: string
  /**
   * API Pix's scopes the token was issued for (space-separated, RFC 6749 §3.3), by POST /oauth/token;
   * absent on the gateway's tokens, which carry the account's whole grant.
   */
  scope?: string
  iat: number
  exp: number
  jti: string
}

/** What a token is issued to and checked against: an account as the store holds it. */
export interface TokenSubject {
  readonly id: number
  readonly clientId: string
  readonly incarnation?: string
}

export class TokenService {
  private readonly sign: (payload: Record<string, unknown>) => string
  private readonly decode: (token: string) => TokenClaims

  constructor (secret: string, private readonly now: () => number) {
    // The payload carries iat and exp in sandbox time; noTimestamp would drop the given iat from the token.
    this.sign = createSigner({ key: secret, algorithm: 'HS256' })
    // Expiry is ours to check (sandbox clock); the library checks the signature and algorithm.
    this.decode = createVerifier({ key: secret, algorithms: ['HS256'], ignoreExpiration: true, ignoreNotBefore: true })
  }

  issue (account: TokenSubject, jti: string, scopes?: readonly string[]): string {
    const iat = Math.floor(this.now() / 1000)
    const inc = account.incarnation === undefined ? {} : { inc: account.incarnation }
    const scope = scopes === undefined ? {} : { scope: scopes.join(' ') }
    return this.sign({ sub: String(account.id), clientId: account.clientId, ...inc, ...scope, iat, exp: iat + TOKEN_LIFETIME_SECONDS, jti })
  }

  /**
   * Whether a token was issued to this account in its present life. The id alone is not enough (a full
   * reset hands it out again), nor the clientId (a reset keeps the fixture account's and the account's
   * own): a reset or an import gives the account a new incarnation, which the token does not name.
   */
  issuedTo (claims: TokenClaims, account: TokenSubject): boolean {
    return String(account.id) === claims.sub && account.clientId === claims.clientId && account.incarnation === claims.inc
  }

  /**
   * Tokens whose signature was checked, by their exact text. An integration sends the same token on
   * every request for half an hour; checking its HMAC each time (or hashing it for fast-jwt's cache)
   * was about 5% of a cash-out's CPU. A tampered token is other text, so it is never found here.
   */
  private readonly verified = new Map<string, TokenClaims>()

  /** The claims of a valid, unexpired token, or null. */
  verify (token: string): TokenClaims | null {
    const claims = this.signed(token)
    if (!claims || this.expired(claims)) return null
    return claims
  }

  /** Whether a token's 1800 s of sandbox time have run out. */
  expired (claims: TokenClaims): boolean {
    return claims.exp * 1000 <= this.now()
  }

  /**
   * The claims of a token the sandbox signed, expired or not, or null: whose a request was, even when
   * its token had run out (the request journal files such a 401 under the token's account).
   */
  signed (token: string): TokenClaims | null {
    let claims = this.verified.get(token)
    if (!claims) {
      try {
        claims = this.decode(token)
      } catch {
        return null
      }
      // Bounded: a flood of distinct tokens empties it rather than growing it.
      if (this.verified.size >= 1000) this.verified.clear()
      this.verified.set(token, claims)
    }
    if (typeof claims.exp !== 'number' || typeof claims.sub !== 'string') return null
    return claims
  }
}
