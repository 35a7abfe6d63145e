// API Pix's payload locations (BACEN's API Pix 2.9.0, tag CobPayload): the URL, without scheme, where a
// payer's PSP reads the signed payload of a dynamic charge. A location is a capability URL: its last
// segment, an unguessable token, is what finds it; API Pix caps the whole at 77 characters. API Pix
// serves a cob's payload at `GET /{pixUrlAccessToken}` and a cobv's at `GET /cobv/{pixUrlAccessToken}`
// (with codMun and DPP), so a cobv's location has `/cobv` before its token, as BACEN's examples write
// it (`pix.example.com/qr/v2/cobv/...`).
import { randomHex, type Rng } from './ids.js'

/** The path every location of the sandbox has after its host. */
export const PAYLOAD_PATH = '/qr/v2'
/** Where payers' PSPs read the key that signs API Pix's payloads (each at `<host>/qr/v2/<token>`). */
export const JWKS_PATH = '/.well-known/jwks.json'
/** The path of a recurrence's locations: API Pix's `/rec/{recUrlAccessToken}` under PAYLOAD_PATH (`pix.example.com/qr/v2/rec/...`). */
export const REC_PAYLOAD_PATH = `${PAYLOAD_PATH}/rec`
/** The path of a due charge's (cobv) locations: API Pix's `/cobv/{pixUrlAccessToken}` under PAYLOAD_PATH. */
export const COBV_PAYLOAD_PATH = `${PAYLOAD_PATH}/cobv`
export const LOCATION_MAX_LENGTH = 77
const TOKEN_LENGTH = 32
/**
 * The longest host[:port] a location can take: what the longest path (a cobv's) and the token leave of
 * the 77 characters, so that a host takes locations of either kind.
 */
export const LOCATION_HOST_MAX_LENGTH = LOCATION_MAX_LENGTH - COBV_PAYLOAD_PATH.length - 1 - TOKEN_LENGTH

/** The charge a location serves, as API Pix names it. */
export type TipoCob = 'cob' | 'cobv'

const TOKEN = /^[0-9a-f]{32}$/

export const newLocationToken = (rng: Rng): string => randomHex(rng, TOKEN_LENGTH)

/** A host[:port] a location can carry: a name or an address (IPv6 in brackets), an optional port, short enough. */
export function isLocationHost (host: string): boolean {
  return host.length <= LOCATION_HOST_MAX_LENGTH && /^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?$/.test(host)
}

/** The location of a token at a host: `<host>/qr/v2/<token>` for a cob, `<host>/qr/v2/cobv/<token>` for a cobv. */
export function locationAt (host: string, token: string, tipoCob: TipoCob = 'cob'): string {
  if (!isLocationHost(host) || !TOKEN.test(token)) throw new RangeError(`no location of ${host} and ${token}`)
  return `${host}${tipoCob === 'cobv' ? COBV_PAYLOAD_PATH : PAYLOAD_PATH}/${token}`
}

/** The token of a location of either shape, whatever its host; null for any other URL. */
export function tokenOf (location: string): string | null {
  for (const path of [COBV_PAYLOAD_PATH, PAYLOAD_PATH]) {
    const at = location.lastIndexOf(`${path}/`)
    if (at <= 0) continue
    const token = location.slice(at + path.length + 1)
    return TOKEN.test(token) ? token : null
  }
  return null
}

/** Whether a string is a token of a location (the last segment of GET /qr/v2/:token). */
export const isLocationToken = (token: string): boolean => TOKEN.test(token)

/** The host[:port] of a location (what precedes its path). */
export function hostOf (location: string): string {
  const at = location.indexOf('/')
  return at === -1 ? location : location.slice(0, at)
}

/** The location of a recurrence's token at a host: `<host>/qr/v2/rec/<token>`. */
export function recLocationAt (host: string, token: string): string {
  if (!isLocationHost(host) || !TOKEN.test(token)) throw new RangeError(`no recurrence location of ${host} and ${token}`)
  return `${host}${REC_PAYLOAD_PATH}/${token}`
}

/** The token of a recurrence's location, whatever its host; null for any other URL. */
export function recTokenOf (location: string): string | null {
  const at = location.lastIndexOf(`${REC_PAYLOAD_PATH}/`)
  if (at <= 0) return null
  const token = location.slice(at + REC_PAYLOAD_PATH.length + 1)
  return TOKEN.test(token) ? token : null
}
