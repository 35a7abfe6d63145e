import type { Code } from './refusal.js'
import { PAYLOAD_PATH } from '../domain/payload-locations.js'

/**
 * The families a route belongs to (docs/gateway.md §1, "Two families on one base URL"), the control
 * plane, and BACEN's API Pix (docs/api-pix.md), a second dialect over the same records: each answers
 * an outcome with its own status and its own error body (docs/gateway.md §7, RFC 7807 for API Pix).
 * One vocabulary for the error handler, the declared error responses and the schemas' error shapes.
 */
export type Family = 'standard' | 'central-bank' | 'sandbox' | 'api-pix'

export const FAMILIES: readonly Family[] = ['standard', 'central-bank', 'sandbox', 'api-pix']

/**
 * The body an error takes: its family's, but for the OAuth token of API Pix, which answers as RFC 6749
 * §5.2 says (`error`, `error_description`) rather than in problem details.
 */
export type ErrorShape = Family | 'oauth'

/** Where API Pix's clients ask for a token (docs/api-pix.md): at the root, whatever the base path. */
export const OAUTH_TOKEN_PATH = '/oauth/token'
/** Where payers' PSPs read the key that signs API Pix's payloads (each at `<host>/qr/v2/<token>`). */
export const JWKS_PATH = '/.well-known/jwks.json'

/** The paths of API Pix outside its base path: its token, its payload locations and their key. */
const apiPixOutsideBase = (path: string): boolean => path === OAUTH_TOKEN_PATH || path === JWKS_PATH || path.startsWith(`${PAYLOAD_PATH}/`)

/**
 * The family of a request path: unknown routes and body-parser failures get one too. `apiPixBase` is
 * the base path API Pix is served under (`--api-pix-base-path`); without it only API Pix's paths outside
 * it are. It is read before `/api/`: the base may be `/api/v2`, which no gateway route is under.
 */
export function familyOf (url: string, apiPixBase?: string): Family {
  const path = url.split('?')[0]
  if (path.startsWith('/__sandbox')) return 'sandbox'
  if (apiPixOutsideBase(path) || (apiPixBase !== undefined && (path === apiPixBase || path.startsWith(`${apiPixBase}/`)))) return 'api-pix'
  if (path.startsWith('/api/') || path === '/balance') return 'standard'
  return 'central-bank'
}

/** A route as the router registered it: its method and URL pattern (`/v2/cob/:txid`). */
export interface RouteUrl { readonly method: string, readonly url: string }

/** Whether a pattern's segments (`:name` matching any one) match a path's. */
const patternMatches = (pattern: readonly string[], path: readonly string[]): boolean =>
  pattern.length === path.length && pattern.every((p, i) => p.startsWith(':') ? path[i] !== '' : p === path[i])

/**
 * The path under API Pix's base path that a request reaching no route most likely meant, when its path
 * is an operation of API Pix under another prefix ending in a version (`/v1/cob/x`, `/api/v2/cob`,
 * `/pix/v2/cobv`), or under none where the gateway's families have no such resource (`/cobv/x`): the
 * base path, and the rest of the path. Undefined for anything else, which keeps its family's 404: a
 * control-plane path, and a standard-family route with a version slipped in (`/api/v1/pix/cash-out`).
 */
export function apiPixPathMeant (path: string, base: string, routes: readonly RouteUrl[]): string | undefined {
  const family = familyOf(path, base)
  if (family !== 'central-bank' && family !== 'standard') return undefined
  const segments = path.split('/').slice(1)
  const under = routes.filter(r => r.url.startsWith(`${base}/`) && !r.url.endsWith('*')).map(r => r.url.slice(base.length + 1).split('/'))
  const outside = routes.filter(r => !r.url.startsWith(`${base}/`)).map(r => r.url.split('/').slice(1))
  for (let i = 0; i < segments.length; i++) {
    const rest = segments.slice(i)
    if (!under.some(p => patternMatches(p, rest))) continue
    if (i === 0 ? outside.some(p => p[0] === rest[0]) : !/^v\d+$/i.test(segments[i - 1])) continue
    const withoutVersion = [...segments.slice(0, i - 1), ...rest]
    if (i > 0 && segments[0] === 'api' && outside.some(p => patternMatches(p, withoutVersion))) continue
    return `${base}/${rest.join('/')}`
  }
  return undefined
}

/** The scheme and host of an absolute-form target (`GET http://host/balance HTTP/1.1`, RFC 9112 §3.2.2). */
const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i

/**
 * The path of a request target, without its query and without the scheme and host of the absolute
 * form, which the router reads as the path they name (`http://host/balance` is `/balance`).
 */
export function targetPath (target: string): string {
  const q = target.indexOf('?')
  const path = q === -1 ? target : target.slice(0, q)
  return path.charCodeAt(0) === 47 ? path : path.replace(ABSOLUTE_FORM, '') || '/'
}

/**
 * The path whose family answers a request that matched no route: its target's path as the router
 * reads it (percent-encoded characters decoded, as `/%62alance` reaches `/balance`), doubled slashes
 * read as one, so that `//balance` is an unknown route of the standard family.
 */
export function unroutedPath (target: string): string {
  const path = targetPath(target).replace(/\/{2,}/g, '/')
  try {
    return decodeURI(path)
  } catch {
    return path
  }
}

/**
 * The shape of the error body a path answers with: its family's, but for the gateway's token, a route
 * of the standard family that answers in the central-bank family's simple shape (docs/gateway.md §7,
 * "Simple"), and for API Pix's token, which answers as OAuth 2.0 does.
 */
export function errorShapeOf (url: string, apiPixBase?: string): ErrorShape {
  const path = url.split('?')[0]
  if (path === '/api/auth/token') return 'central-bank'
  if (path === OAUTH_TOKEN_PATH) return 'oauth'
  return familyOf(path, apiPixBase)
}

/** How the families answer one outcome. */
export interface Answer {
  /** The status in each family that can meet the outcome; a family that cannot has none. */
  readonly standard?: number
  readonly 'central-bank'?: number
  readonly sandbox?: number
  readonly 'api-pix'?: number
  /** The code the body and the request journal show, where it is not the outcome's own name. */
  readonly reportedAs?: 'HTTP_ERROR' | 'PIX_DUPLICATE_EXTERNAL_ID'
  /**
   * The extended shape reports it as a generic error (`code: HTTP_ERROR` and `error`) rather than a
   * business one (`code` and `errorCode`): what the gateway does with its generic HTTP errors.
   */
  readonly generic?: true
}

const everywhere = (status: number): Pick<Answer, Family> => ({ standard: status, 'central-bank': status, sandbox: status, 'api-pix': status })
const gateway = (status: number): Pick<Answer, Family> => ({ standard: status, 'central-bank': status })

/**
 * The one mapping from outcome to status, per family. The compiler checks that every code has a row;
 * test/unit/families.test.ts that every row answers in a family, and the error handler answers a
 * refusal that reaches a family without a status as an internal error (logged), which the route tests
 * would see. Where the families differ on one code, the row says so.
 */
export const ANSWERS: Record<Code, Answer> = {
  INVALID_REQUEST: { ...everywhere(400), reportedAs: 'HTTP_ERROR' },
  // The token (docs/gateway.md §7.1): a certificate or credentials that do not check out, a certificate of another account.
  // API Pix's OAuth token (RFC 6749 §5.2, RFC 8705 §2): both are the client failing to authenticate, 401 invalid_client.
  INVALID_CREDENTIALS: { standard: 401, 'api-pix': 401, reportedAs: 'HTTP_ERROR' },
  CERTIFICATE_NOT_LINKED: { standard: 403, 'api-pix': 401, reportedAs: 'HTTP_ERROR' },
  // API Pix's OAuth token: RFC 6749 §5.2's unsupported_grant_type and invalid_scope.
  UNSUPPORTED_GRANT_TYPE: { 'api-pix': 400 },
  INVALID_SCOPE: { 'api-pix': 400 },
  ROUTE_NOT_FOUND: { ...everywhere(404), reportedAs: 'HTTP_ERROR' },
  BODY_TOO_LARGE: { ...everywhere(413), reportedAs: 'HTTP_ERROR' },
  URI_TOO_LONG: { ...everywhere(414), reportedAs: 'HTTP_ERROR' },
  UNSUPPORTED_MEDIA_TYPE: { ...everywhere(415), reportedAs: 'HTTP_ERROR' },

  UNAUTHORIZED: { ...gateway(401), 'api-pix': 401, generic: true },
  // A token without the scope the route needs (API Pix's AcessoNegado); on the gateway, a token of /oauth/token
  // issued for scopes that do not cover the route (docs/api-pix.md, Scopes).
  ACCESS_DENIED: { ...gateway(403), 'api-pix': 403, generic: true },
  ADMIN_TOKEN_REQUIRED: { sandbox: 401, generic: true },
  // The transport faults (server/faults.ts) answer API Pix's operations too.
  RATE_LIMITED: { ...gateway(429), 'api-pix': 429 },
  SERVICE_UNAVAILABLE: { ...gateway(503), 'api-pix': 503, generic: true },
  STORAGE_UNAVAILABLE: { ...everywhere(503), generic: true },
  INTERNAL_ERROR: { ...everywhere(500), generic: true },

  NOT_FOUND: { ...everywhere(404), generic: true },
  ACCOUNT_NOT_FOUND: { standard: 404, sandbox: 404, generic: true },
  TRANSACTION_NOT_FOUND: { standard: 404, sandbox: 404, generic: true },
  CHARGE_NOT_FOUND: { sandbox: 404 },
  MED_NOT_FOUND: { sandbox: 404 },
  // Paying a key the directory does not hold is the provider's refusal (docs/gateway.md §7.6); asking the
  // control plane for one is a lookup that finds nothing.
  KEY_NOT_FOUND: { 'central-bank': 422, sandbox: 404 },
  WEBHOOK_NOT_FOUND: { standard: 404, sandbox: 404, generic: true },
  DELIVERY_NOT_FOUND: { sandbox: 404 },
  REQUEST_NOT_FOUND: { sandbox: 404 },
  SCENARIO_NOT_FOUND: { sandbox: 404 },

  PIX_INVALID_AMOUNT: { standard: 400, sandbox: 400 },
  PIX_INVALID_PIX_KEY: { standard: 400 },
  PIX_DUPLICATE_EXTERNAL_ID: { standard: 400 },
  // The same refusal as PIX_DUPLICATE_EXTERNAL_ID, which the cash-out by QR code answers with 409
  // (docs/gateway.md §7.3) where the cash-out, the cash-in and the refund-in answer 400 (§7.2): the
  // endpoint, not the family, picks the status, so the outcome has a name of its own and the wire the gateway's.
  QRCODE_DUPLICATE_EXTERNAL_ID: { standard: 409, reportedAs: 'PIX_DUPLICATE_EXTERNAL_ID' },
  // 400 in the standard family (docs/gateway.md §7.2, 7.5), 422 in the central-bank one (§7.6, and the devolução);
  // API Pix's devolução answers PixDevolucaoInvalida (400).
  PIX_INSUFFICIENT_BALANCE: { standard: 400, 'central-bank': 422, 'api-pix': 400 },
  PIX_TRANSACTION_LIMIT_EXCEEDED: { standard: 400 },
  PIX_DAILY_LIMIT_EXCEEDED: { standard: 400 },
  PIX_NIGHT_LIMIT_EXCEEDED: { standard: 400 },
  PIX_AMOUNT_MISMATCH: { sandbox: 400 },
  QRCODE_ALREADY_PAID: { standard: 422, sandbox: 422 },
  QRCODE_NOT_AVAILABLE: { standard: 422, sandbox: 422 },
  PROVIDER_REJECTED: { standard: 422, generic: true },
  ISPB_DENIED: { 'central-bank': 422 },

  PIX_SPLIT_AMOUNT_EXCEEDED: { standard: 400 },
  PROVIDER_EXPIRATION_BELOW_MINIMUM: { standard: 400 },
  PROVIDER_UNAVAILABLE: { standard: 500 },
  // API Pix answers both as CobOperacaoInvalida (400): a txid in use, a charge no longer ATIVA.
  COB_TXID_EXISTS: { 'central-bank': 409, 'api-pix': 400 },
  COB_NOT_ACTIVE: { 'central-bank': 409, 'api-pix': 400 },
  // API Pix's payload location that showed a charge and will not show it again (CobPayloadNaoEncontrado, 410).
  PAYLOAD_GONE: { 'api-pix': 410 },
  INVALID_PIX_CODE: { sandbox: 400 },
  ACCOUNT_LIMIT_REACHED: { sandbox: 422 },

  // The refund-in refuses a payment it cannot refund as invalid data (docs/gateway.md §7.5); the control
  // plane's return of an outgoing payment refuses one that is not liquidated as a state conflict.
  REFUND_NOT_ALLOWED: { standard: 400, sandbox: 409 },
  // 400 on the refund-in (docs/gateway.md §7.5), 422 on the devolução (§7.8); API Pix's devolução answers
  // both a late request and an id in use as PixDevolucaoInvalida (400).
  REFUND_DEADLINE_EXCEEDED: { standard: 400, 'central-bank': 422, 'api-pix': 400 },
  REFUND_AMOUNT_EXCEEDS_ORIGINAL: everywhere(400),
  DEVOLUCAO_ID_EXISTS: { 'central-bank': 409, 'api-pix': 400, generic: true },

  MED_ALREADY_OPEN: { sandbox: 409 },
  MED_INVALID_TRANSITION: { sandbox: 409 },
  MED_ANALYSIS_REQUIRED: { sandbox: 400 },
  MED_ANALYSIS_NOT_ALLOWED: { sandbox: 400 },
  REC_INVALID_TRANSITION: { sandbox: 409 },

  INVALID_WEBHOOK_URL: { standard: 400, sandbox: 400 },
  WEBHOOK_URL_IS_SANDBOX: { standard: 400, sandbox: 400 },
  INVALID_WEBHOOK_HEADER: { standard: 400, sandbox: 400 },
  WEBHOOK_HEADER_NOT_ALLOWED: { standard: 400, sandbox: 400 },
  TOO_MANY_WEBHOOK_HEADERS: { standard: 400, sandbox: 400 },
  WEBHOOK_LIMIT_REACHED: { standard: 400, sandbox: 400 },
  NO_RECEIVER: { sandbox: 409 },

  UNKNOWN_SCENARIO: everywhere(400),
  INVALID_SCENARIO_PARAMETER: everywhere(400),
  INVALID_DOCUMENT: { sandbox: 400 },
  INVALID_PIX_KEY: { sandbox: 400 },
  INSUFFICIENT_BALANCE: { sandbox: 400 },
  BALANCE_LIMIT: { sandbox: 400 },
  CLOCK_OUT_OF_RANGE: { sandbox: 400 },
  CLOCK_BACKWARDS: { sandbox: 400 },
  TRANSACTION_NOT_PENDING: { sandbox: 409 },
  VERIFICATION_FAILED: { sandbox: 409 },
  WAIT_TIMEOUT: { sandbox: 408 },
}

/** The status of an outcome in a family, or undefined when the family cannot meet it. */
export function statusOf (code: Code, family: Family): number | undefined {
  return ANSWERS[code][family]
}

/** The code the body and the request journal show for an outcome. */
export function reportedCode (code: Code): string {
  return ANSWERS[code].reportedAs ?? code
}

/** Whether the extended shape reports the outcome as a generic error rather than a business one. */
export function isGeneric (code: Code): boolean {
  const answer = ANSWERS[code]
  return answer.generic === true || answer.reportedAs === 'HTTP_ERROR'
}

export const httpReason: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}
