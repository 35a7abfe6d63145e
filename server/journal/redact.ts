import { intern } from '../store/intern.js'

/**
 * What keeps secrets out of the request journal: credentials are replaced by {@link MASK} before an
 * entry is kept, so no read of the journal (API, dashboard, log) can show them. Masked: the headers
 * that carry credentials, the body fields that carry them at any depth, any PEM block (certificates
 * and private keys, whatever field holds them), and any other occurrence of a credential the request
 * carried (a token repeated in the query string, a client secret pasted into another field).
 */
export const MASK = '[masked]'

/** Header names (lower case) whose value is a credential. */
const SECRET_HEADERS = new Set(['authorization', 'x-ssl-client-cert', 'x-sandbox-admin-token', 'cookie', 'set-cookie', 'proxy-authorization'])

/** Body field names, compared without case, dashes or underscores. */
const SECRET_FIELDS = new Set(['clientsecret', 'accesstoken', 'privatekey', 'refreshtoken', 'password'])
const normalise = (key: string): string => key.toLowerCase().replace(/[-_]/g, '')
/**
 * The answer for each field name seen so far: every request's body is walked, and its names repeat
 * from one request to the next (normalising them anew was the journal's largest cost per request).
 * Bounded: a flood of distinct names empties it rather than growing it.
 */
const secretFieldNames = new Map<string, boolean>()
export function isSecretField (key: string): boolean {
  let secret = secretFieldNames.get(key)
  if (secret === undefined) {
    secret = SECRET_FIELDS.has(normalise(key))
    if (secretFieldNames.size >= 10_000) secretFieldNames.clear()
    secretFieldNames.set(key, secret)
  }
  return secret
}

const PEM = /-----BEGIN [A-Z0-9 ]+-----[\s\S]*?(-----END [A-Z0-9 ]+-----\r?\n?|$)/g
// The same block as JSON text writes it (newlines escaped), up to its END line or the string's end.
const PEM_IN_JSON = /-----BEGIN [A-Z0-9 ]+-----(?:[^"\\]|\\.)*?(?:-----END [A-Z0-9 ]+-----(?:\\r)?(?:\\n)?|(?="))/g
const SECRET_IN_JSON = /"(client_?secret|access_?token|private_?key|refresh_?token|password)"\s*:\s*"(?:[^"\\]|\\.)*"/gi

/** Credentials a request carried, so that any other copy of them is masked too (longest first). */
export function secretValues (headers: Record<string, unknown>, body: unknown, extra: readonly string[]): string[] {
  const found = new Set<string>()
  const add = (v: unknown): void => { if (typeof v === 'string' && v.length >= 8) found.add(v) }
  for (const name of SECRET_HEADERS) {
    const v = headers[name]
    if (typeof v === 'string') {
      add(v)
      const bearer = /^\s*bearer\s+(\S+)/i.exec(v)
      if (bearer) add(bearer[1])
    }
  }
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    for (const k in body) if (Object.hasOwn(body, k) && isSecretField(k)) add((body as Record<string, unknown>)[k])
  }
  for (const v of extra) add(v)
  const out = [...found]
  if (out.length > 8) return out.sort((a, b) => b.length - a.length)
  // A request carries a handful (a bearer token with and without its prefix, the admin token): sorted in
  // place, stable as Array#sort, which would allocate a work copy on every request.
  for (let i = 1; i < out.length; i++) {
    const secret = out[i]
    let j = i
    for (; j > 0 && out[j - 1].length < secret.length; j--) out[j] = out[j - 1]
    out[j] = secret
  }
  return out
}

function maskString (s: string, secrets: readonly string[]): string {
  let out = s.includes('-----BEGIN ') ? s.replace(PEM, MASK) : s
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(MASK)
  return out
}

/**
 * Headers whose values a client repeats on every request: kept as one shared copy (store/intern.ts),
 * as the HTTP parser makes a new string of each on every request and the journal keeps a thousand
 * entries per account.
 */
const REPEATED_HEADERS = new Set(['host', 'connection', 'content-type', 'content-length', 'accept', 'accept-encoding', 'accept-language', 'user-agent'])

/** A copy of the headers with credentials masked (multi-valued headers joined as HTTP does). */
export function maskHeaders (headers: Record<string, unknown>, secrets: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  // for...in, not Object.entries: no array of pairs per header set (two per request).
  for (const name in headers) {
    const value = headers[name]
    if (value === undefined || !Object.hasOwn(headers, name)) continue
    const text = Array.isArray(value) ? value.join(', ') : String(value)
    const lower = name.toLowerCase()
    const masked = SECRET_HEADERS.has(lower) ? MASK : maskString(text, secrets)
    out[name] = REPEATED_HEADERS.has(lower) ? intern(masked) : masked
  }
  return out
}

/** The value with credentials masked; the same object when there was nothing to mask (no copy made). */
export function maskValue<T> (value: T, secrets: readonly string[]): T {
  if (typeof value === 'string') return maskString(value, secrets) as T
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null
    for (let i = 0; i < value.length; i++) {
      const masked = maskValue(value[i], secrets)
      if (masked !== value[i]) (copy ??= [...value])[i] = masked
    }
    return (copy ?? value) as T
  }
  let copy: Record<string, unknown> | null = null
  const record = value as Record<string, unknown>
  for (const k in record) {
    if (!Object.hasOwn(record, k)) continue
    const v = record[k]
    const masked = isSecretField(k) && v !== null && v !== undefined ? MASK : maskValue(v, secrets)
    if (masked !== v) (copy ??= { ...record })[k] = masked
  }
  return (copy ?? value) as T
}

/** The same for a JSON text, without parsing it (answers are kept as the text that was sent). */
export function maskJsonText (text: string, secrets: readonly string[]): string {
  let out = text
  if (SECRET_IN_JSON.test(out)) out = out.replace(SECRET_IN_JSON, (_m, key: string) => `"${key}":"${MASK}"`)
  SECRET_IN_JSON.lastIndex = 0
  if (out.includes('-----BEGIN ')) out = out.replace(PEM_IN_JSON, MASK)
  for (const secret of secrets) {
    if (!out.includes(secret)) continue
    // A credential inside JSON text is written as JSON writes it (a PEM's newlines escaped).
    const written = JSON.stringify(secret).slice(1, -1)
    out = out.split(written).join(MASK)
    if (out.includes(secret)) out = out.split(secret).join(MASK)
  }
  return out
}
