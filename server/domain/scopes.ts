/**
 * The OAuth 2.0 scopes of BACEN's API Pix 2.9.0 (its securitySchemes, OAuth2 client credentials): what
 * a receiver's integration may do. An account is granted some (every one unless its creation says
 * otherwise) and a token carries a part of its grant; each route of the dialect needs one.
 */

/** Where API Pix's clients ask for a token of some of these scopes (docs/api-pix.md): at the root, whatever the base path. */
export const OAUTH_TOKEN_PATH = '/oauth/token'

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

/**
 * The scopes of Efí's own Pix routes (docs/efi.md, Scopes): signed in through the same OAuth token as
 * API Pix's, with the same client credentials, so one account's grant holds both lists.
 */
export const EFI_SCOPES = [
  'pix.send', 'gn.pix.send.read', 'gn.pix.sameownership.send', 'gn.qrcodes.pay', 'gn.qrcodes.read',
  'gn.balance.read', 'gn.settings.read', 'gn.settings.write', 'gn.pix.evp.read', 'gn.pix.evp.write',
  'gn.keys.bucket.read', 'gn.infractions.read', 'gn.infractions.write', 'gn.split.read', 'gn.split.write',
  'gn.pix.write',
  'gn.reports.read', 'gn.reports.write', 'gn.receipts.read',
] as const

export type EfiScope = typeof EFI_SCOPES[number]

/** Every scope an account may be granted and a token of POST /oauth/token may carry: API Pix's, then Efí's. */
export const OAUTH_SCOPES = [...API_PIX_SCOPES, ...EFI_SCOPES] as const
export type OAuthScope = typeof OAUTH_SCOPES[number]

const KNOWN: ReadonlySet<string> = new Set(OAUTH_SCOPES)

export const isOAuthScope = (s: string): s is OAuthScope => KNOWN.has(s)

/** An account's grant: the scopes it was created with, every one when it was created without a list. */
export function grantedScopes (account: { readonly scopes?: readonly string[] }): readonly OAuthScope[] {
  return account.scopes === undefined ? OAUTH_SCOPES : account.scopes.filter(isOAuthScope)
}

/**
 * The scopes a token request asks for (RFC 6749 §3.3: space-separated, in any order), checked against
 * the grant: the grant itself when none is asked, else the ones asked, or the first that is not granted.
 */
export function requestedScopes (requested: string | undefined, grant: readonly OAuthScope[]): { ok: true, scopes: readonly OAuthScope[] } | { ok: false, refused: string } {
  if (requested === undefined || requested.trim() === '') return { ok: true, scopes: grant }
  const asked = [...new Set(requested.trim().split(/ +/))]
  const refused = asked.find(s => !(grant as readonly string[]).includes(s))
  if (refused !== undefined) return { ok: false, refused }
  return { ok: true, scopes: asked as OAuthScope[] }
}

/**
 * Why a token may not act on a route, or null when it may (docs/api-pix.md, Scopes). `tokenScopes` are
 * the scopes a token of POST /oauth/token was issued for (space-separated), undefined for a token of
 * the gateway's POST /api/auth/token. `needed` is the scope of API Pix that covers the route, undefined
 * where none does; `apiPix` says whether the route is API Pix's.
 * - On API Pix a token needs the route's scope; the gateway's token carries the account's grant.
 * - On the gateway a token of /oauth/token keeps to its scopes: where a scope covers the route (the
 *   gateway's cob, pix and devolução, BACEN's own operations) it needs that scope; where none does,
 *   only a token of the account's whole grant acts, as the account. The gateway's own token has no
 *   scopes (docs/gateway.md §5) and acts on every route of the gateway.
 */
export function scopeRefusal (tokenScopes: string | undefined, grant: readonly OAuthScope[], needed: OAuthScope | undefined, apiPix: boolean): string | null {
  if (tokenScopes === undefined && !apiPix) return null
  const held: readonly string[] = tokenScopes === undefined ? grant : tokenScopes.split(' ')
  if (needed !== undefined) return held.includes(needed) ? null : `O token de acesso não tem o escopo ${needed}, que esta operação exige`
  if (apiPix || grant.every(s => held.includes(s))) return null
  return 'O token de acesso foi emitido para parte dos escopos de API Pix (POST /oauth/token com scope) e esta operação do gateway não está em nenhum escopo: use um token de toda a concessão da conta (POST /api/auth/token, ou POST /oauth/token sem scope)'
}
