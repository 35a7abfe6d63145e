/**
 * The OAuth 2.0 scopes of BACEN's API Pix 2.9.0 (its securitySchemes, OAuth2 client credentials): what
 * a receiver's integration may do. An account is granted some (every one unless its creation says
 * otherwise) and a token carries a part of its grant; each route of the dialect needs one.
 */
export const API_PIX_SCOPES = [
  'cob.write', 'cob.read',
  'cobr.write', 'cobr.read',
  'rec.write', 'rec.read',
  'solicrec.write', 'solicrec.read',
  'cobv.write', 'cobv.read',
  'lotecobv.write', 'lotecobv.read',
  'pix.write', 'pix.read',
  'webhook.read', 'webhook.write',
  'webhookrec.read', 'webhookrec.write',
  'webhookcobr.read', 'webhookcobr.write',
  'payloadlocation.write', 'payloadlocation.read',
  'payloadlocationrec.write', 'payloadlocationrec.read',
] as const

export type ApiPixScope = typeof API_PIX_SCOPES[number]

const KNOWN: ReadonlySet<string> = new Set(API_PIX_SCOPES)

export const isApiPixScope = (s: string): s is ApiPixScope => KNOWN.has(s)

/** An account's grant: the scopes it was created with, every one when it was created without a list. */
export function grantedScopes (account: { readonly scopes?: readonly string[] }): readonly ApiPixScope[] {
  return account.scopes === undefined ? API_PIX_SCOPES : account.scopes.filter(isApiPixScope)
}

/**
 * The scopes a token request asks for (RFC 6749 §3.3: space-separated, in any order), checked against
 * the grant: the grant itself when none is asked, else the ones asked, or the first that is not granted.
 */
export function requestedScopes (requested: string | undefined, grant: readonly ApiPixScope[]): { ok: true, scopes: readonly ApiPixScope[] } | { ok: false, refused: string } {
  if (requested === undefined || requested.trim() === '') return { ok: true, scopes: grant }
  const asked = [...new Set(requested.trim().split(/ +/))]
  const refused = asked.find(s => !(grant as readonly string[]).includes(s))
  if (refused !== undefined) return { ok: false, refused }
  return { ok: true, scopes: asked as ApiPixScope[] }
}
