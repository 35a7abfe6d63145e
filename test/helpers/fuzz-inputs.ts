import fc from 'fast-check'

/**
 * Generators of hostile and valid-ish input, shared by the bad-input property test
 * (test/reliability/bad-input.test.ts) and the fuzz run (test/helpers/fuzz.ts): JSON values that are
 * wrong almost anywhere they land, mutations of a valid body, malformed JSON, odd content types,
 * headers, query strings, path segments and Authorization values.
 */
export type Json = unknown
export interface Payload { text?: string, contentType?: string }

export function nest (depth: number, leaf: Json = 1, asArray = false): Json {
  let v: Json = leaf
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { a: v }
  return v
}

/** Sets an own enumerable key, also for `__proto__` (a plain assignment would change the prototype). */
export function defineKey (target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true })
}

export const oddNumber = fc.constantFrom(1e308, -1e308, -0, 0, 0.001, 0.005, 1.005, 0.29, 10.999, -1, -0.01, 1e21, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, 5e-324, 123456789.12, 1e9)
export const nanLike = fc.constantFrom('NaN', 'Infinity', '-Infinity', '-0', '1e308', '0x10', '10,00', '10.00', ' 10', '', 'null', 'true', 'undefined', '[object Object]', '1.005', '0.00', '-1.00', '999999999999999999999.99')
export const unicode = fc.string({ unit: 'grapheme', maxLength: 40 })
export const binaryish = fc.string({ unit: 'binary', maxLength: 40 })
export const huge = fc.constantFrom(10_000, 100_000, 300_000, 700_000).chain(n => fc.constantFrom('a', 'é', '𝔸', '0', ' ').map(c => c.repeat(n)))
export const deep = fc.tuple(fc.constantFrom(20, 200, 1000), fc.boolean()).map(([d, arr]) => nest(d, 'x', arr))
export const protoValue = fc.constantFrom<Json>({ polluted: true }, { prototype: { polluted: true } }, 'x', null, [])

/** A JSON value that is wrong almost anywhere it lands. */
export const weird: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 3, arbitrary: oddNumber },
  { weight: 3, arbitrary: nanLike },
  { weight: 2, arbitrary: unicode },
  { weight: 1, arbitrary: binaryish },
  { weight: 1, arbitrary: huge },
  { weight: 1, arbitrary: deep },
  { weight: 2, arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom<Json>(null, true, false, {}, [], [{}]) }
)

export const extraKey = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '', ' ', '$ref', 'then') },
  { weight: 2, arbitrary: unicode }
)

export type Mutation =
  | { kind: 'set', at: number, value: Json }
  | { kind: 'delete', at: number }
  | { kind: 'extra', at: number, key: string, value: Json }
  | { kind: 'wrapArray', at: number }

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: weird }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('extra' as const), at: fc.nat(), key: extraKey, value: fc.oneof(weird, protoValue) }),
  fc.record({ kind: fc.constant('wrapArray' as const), at: fc.nat() })
)

/** Every path of a JSON value: [] is the root, then each key of each object or array. */
export function paths (v: Json, prefix: string[] = []): string[][] {
  const out = [prefix]
  if (v && typeof v === 'object' && prefix.length < 6) for (const k of Object.keys(v)) out.push(...paths((v as Record<string, Json>)[k], [...prefix, k]))
  return out
}

/** A fresh copy (fast-check hands out constants by reference); JSON keeps own `__proto__` keys as data. */
export const fresh = (v: Json): Json => v === undefined ? undefined : JSON.parse(JSON.stringify(v))

export function apply (body: Json, input: Mutation): Json {
  const m = 'value' in input ? { ...input, value: fresh(input.value) } : input
  const all = paths(body)
  const path = all[m.at % all.length]
  if (path.length === 0) {
    if (m.kind === 'set') return m.value
    if (m.kind === 'wrapArray') return [body]
    if (m.kind === 'delete') return undefined
    if (body && typeof body === 'object' && !Array.isArray(body)) defineKey(body as Record<string, unknown>, m.key, m.value)
    return body
  }
  const parent = path.slice(0, -1).reduce((o: any, k) => o[k], body) as Record<string, Json>
  const key = path[path.length - 1]
  if (m.kind === 'set') parent[key] = m.value
  else if (m.kind === 'delete') delete parent[key]
  else if (m.kind === 'wrapArray') parent[key] = [parent[key]]
  else {
    const target = parent[key]
    if (target && typeof target === 'object' && !Array.isArray(target)) defineKey(target as Record<string, unknown>, m.key, m.value)
    else defineKey(parent as Record<string, unknown>, m.key, m.value)
  }
  return body
}

export const JSON_CT = 'application/json'
export const contentType = fc.constantFrom('application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x', 'application/xml', 'application/jsonx', 'application/json; charset=latin1', 'APPLICATION/JSON', '*/*', '', 'application/vnd.api+json')

export const malformed = fc.oneof(
  fc.constantFrom('{', '}', '{"a":', '{"value": 1,', '[1,2', 'nul', 'undefined', "{'a': 1}", '{"a": NaN}', '{"a": Infinity}', '{"a": 01}',
    '{"a": 1}}', '\uFEFF{}', '{"a":"\\x41"}', '{"a": "\u0000"}', '"unterminated', '{"__proto__": {"polluted": true}}',
    '{"constructor": {"prototype": {"polluted": true}}}', '{"a": {"__proto__": {"polluted": true}}}', '{"a":1,"a":2}', ' ', '\n', '0', '-0', '1e308', '1e999', 'true',
    // Nesting far deeper than any object a client builds: the parser and the validator must not recurse to death.
    '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000), '['.repeat(100_000) + ']'.repeat(100_000), '{"transaction":' + '['.repeat(50_000) + ']'.repeat(50_000) + '}'),
  fc.string({ maxLength: 60 }),
  binaryish
)

/** Bodies: mutations of the valid template (mostly), anything at all, malformed text, the valid one. */
export function bodyArb (template: () => Json): fc.Arbitrary<Payload> {
  const json = (v: Json) => JSON.stringify(v) ?? undefined
  const mutated = fc.array(mutation, { minLength: 1, maxLength: 3 }).map(ms => {
    let b: Json = template()
    for (const m of ms) b = apply(b, m)
    return json(b)
  })
  const text = fc.oneof(
    { weight: 8, arbitrary: mutated },
    { weight: 2, arbitrary: fc.anything({ maxDepth: 3 }).map(v => { try { return json(v) } catch { return '{}' } }) },
    { weight: 2, arbitrary: malformed },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constant(null).map(() => json(template())) }
  )
  // Mostly JSON (so the body reaches validation), now and then another or no content type.
  const ct = fc.oneof({ weight: 12, arbitrary: fc.constant(JSON_CT) }, { weight: 2, arbitrary: contentType }, { weight: 1, arbitrary: fc.constant(undefined) })
  return fc.record({ text, contentType: ct })
    .map(p => ({ text: p.text, contentType: p.text === undefined && p.contentType === undefined ? undefined : (p.contentType ?? JSON_CT) }))
}

export const headerName = fc.oneof(
  fc.constantFrom('x-request-id', 'accept', 'accept-encoding', 'accept-language', 'x-sandbox-scenario', 'x-forwarded-for', 'x-forwarded-proto',
    'content-encoding', 'content-length', 'expect', 'origin', 'cookie', 'x-http-method-override', 'if-none-match', 'range', 'x-ssl-client-cert', 'x-idempotency-key', 'user-agent'),
  fc.stringMatching(/^x-[a-z0-9-]{1,20}$/)
)
// Header values must be legal on the wire: visible ASCII and spaces, no CR/LF.
export const headerValue = fc.oneof(
  fc.stringMatching(/^[\x20-\x7e]{0,60}$/),
  fc.constantFrom('gzip', 'br', 'deflate', 'identity', '0', '-1', '999999999', 'abc', '100-continue', 'NaN', 'a'.repeat(8000), '%ZZ', 'INSUFFICIENT_FUNDS;ms=abc', ',,,', ';', 'bytes=0-1')
)
export const oddHeaders = fc.dictionary(headerName, headerValue, { maxKeys: 3 })

export const queryArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 4 }).map(d => '?' + new URLSearchParams(d).toString()) },
  { weight: 2, arbitrary: fc.constantFrom('?a=%ZZ', '?__proto__[x]=1', '?__proto__=1', '?constructor[prototype][x]=1', '?' + 'a=1&'.repeat(2000), '?&&&', '?=', '?a', '?%00=%00', '?a[]=1&a[]=2', '?page=1e308', '?x=' + 'é'.repeat(1000)) }
)

export const oddSegment = fc.oneof(
  { weight: 3, arbitrary: unicode.map(s => encodeURIComponent(s)) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%ZZ', '%00', '%2F', '..', '.', '%2e%2e', 'a%20b', 'a'.repeat(2000), '0', '-1', '1e308', 'NaN', 'null', 'undefined', '__proto__', 'constructor', '%E2%82', '[]', '{}') },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-zA-Z0-9]{1,40}$/) }
)

/** Mostly the valid token; now and then an odd Authorization (expected: 401, unless it is still valid). */
export function authArb (token: string): fc.Arbitrary<string | null> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant(`Bearer ${token}`) },
    { weight: 1, arbitrary: fc.constantFrom(null, '', 'Bearer', 'Bearer ', `bearer ${token}`, `Bearer ${token}x`, `Basic ${token}`, token, `Bearer  ${token}  `, `Bearer ${'a'.repeat(10_000)}`, 'Bearer a.b.c', `Bearer ${token}, Bearer ${token}`) }
  )
}
