import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { buildTestApp, certHeader, fixtureAccount, newAccount } from '../helpers/app.js'
import { generateClientCertificate } from '../../server/auth/certificates.js'

/** POST /api/auth/token (docs/gateway.md §2.1, 5, 7.1): every status code, simple error shape, Portuguese texts. */

const tokenRequest = (app: FastifyInstance, opts: { header?: string | null, clientId?: string, clientSecret?: string, body?: unknown } = {}) => {
  const headers: Record<string, string> = {}
  const header = opts.header === undefined ? certHeader(fixtureAccount.certificate) : opts.header
  if (header !== null) headers['x-ssl-client-cert'] = header
  return app.inject({
    method: 'POST',
    url: '/api/auth/token',
    headers,
    payload: (opts.body ?? { clientId: opts.clientId ?? fixtureAccount.clientId, clientSecret: opts.clientSecret ?? fixtureAccount.clientSecret }) as Record<string, unknown>,
  })
}

/** The simple shape of docs/gateway.md §7: exactly statusCode, message and error; nothing of the extended shape. */
function assertSimpleError (t: Test, res: { statusCode: number, json: () => any }, status: number, message?: string | RegExp) {
  t.equal(res.statusCode, status, 'status')
  const body = res.json()
  t.same(Object.keys(body).sort(), ['error', 'message', 'statusCode'], 'simple shape keys')
  t.equal(body.statusCode, status)
  t.type(body.message, 'string')
  t.type(body.error, 'string')
  if (typeof message === 'string') t.equal(body.message, message)
  else if (message) t.match(body.message, message)
}

const decodeSegment = (s: string): any => JSON.parse(Buffer.from(s, 'base64url').toString('utf8'))

t.test('201 with a JWT, token_type Bearer and expires_in 1800', async t => {
  const app = await buildTestApp(t)
  const res = await tokenRequest(app)
  t.equal(res.statusCode, 201)
  const body = res.json()
  t.same(Object.keys(body).sort(), ['access_token', 'expires_in', 'token_type'])
  t.equal(body.token_type, 'Bearer')
  t.equal(body.expires_in, 1800)
  const parts = body.access_token.split('.')
  t.equal(parts.length, 3, 'a JWT has three parts')
  const header = decodeSegment(parts[0])
  const claims = decodeSegment(parts[1])
  t.equal(header.alg, 'HS256')
  t.equal(claims.sub, '1')
  t.equal(claims.exp - claims.iat, 1800, 'lives 1800 s')
  t.equal(claims.iat * 1000, Date.parse('2026-03-10T15:00:00.000Z'), 'issued at sandbox time')
  t.ok(parts[2].length > 0, 'signed')
})

t.test('two tokens of the same account differ (jti) and both work', async t => {
  const app = await buildTestApp(t)
  const a = (await tokenRequest(app)).json().access_token
  const b = (await tokenRequest(app)).json().access_token
  t.not(a, b)
  for (const token of [a, b]) {
    const res = await app.inject({ method: 'GET', url: '/balance', headers: { authorization: `Bearer ${token}` } })
    t.equal(res.statusCode, 200)
  }
})

t.test('400 when the certificate header is missing', async t => {
  const app = await buildTestApp(t)
  const res = await tokenRequest(app, { header: null })
  assertSimpleError(t, res, 400, /Certificado do cliente ausente/)
  t.equal(res.json().error, 'Bad Request')
})

t.test('400 when the certificate header is empty', async t => {
  const app = await buildTestApp(t)
  assertSimpleError(t, await tokenRequest(app, { header: '' }), 400)
})

t.test('400 "Formato do certificado do cliente inválido" when spaces are encoded as + (form encoding)', async t => {
  const app = await buildTestApp(t)
  const formEncoded = encodeURIComponent(fixtureAccount.certificate).replace(/%20/g, '+')
  t.match(formEncoded, /BEGIN\+CERTIFICATE/, 'the test really sends a +')
  const res = await tokenRequest(app, { header: formEncoded })
  assertSimpleError(t, res, 400, 'Formato do certificado do cliente inválido')
})

t.test('400 when the header is not a PEM at all, or a broken percent-encoding', async t => {
  const app = await buildTestApp(t)
  assertSimpleError(t, await tokenRequest(app, { header: 'not-a-certificate' }), 400, 'Formato do certificado do cliente inválido')
  assertSimpleError(t, await tokenRequest(app, { header: '%E0%A4%A' }), 400, 'Formato do certificado do cliente inválido')
  // The raw (not percent-encoded) PEM cannot even travel in a header (new lines); one line of it is not a PEM.
  assertSimpleError(t, await tokenRequest(app, { header: fixtureAccount.certificate.split('\n')[1] }), 400)
})

t.test('401 for a PEM-armoured block that is not a certificate', async t => {
  const app = await buildTestApp(t)
  const fake = '-----BEGIN CERTIFICATE-----\nQUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=\n-----END CERTIFICATE-----\n'
  const res = await tokenRequest(app, { header: certHeader(fake) })
  assertSimpleError(t, res, 401, 'Certificado do cliente inválido')
  t.equal(res.json().error, 'Unauthorized')
})

t.test('401 for a wrong secret and for an unknown clientId', async t => {
  const app = await buildTestApp(t)
  const wrong = await tokenRequest(app, { clientSecret: 'wrong-secret-123' })
  assertSimpleError(t, wrong, 401, 'Credenciais inválidas')
  const unknown = await tokenRequest(app, { clientId: 'nobody-here' })
  assertSimpleError(t, unknown, 401, 'Credenciais inválidas')
})

t.test('401 for a secret one character, the case or the length away from the right one; the right one still works', async t => {
  const app = await buildTestApp(t)
  const right = fixtureAccount.clientSecret
  for (const clientSecret of [`${right.slice(0, -1)}7`, right.toUpperCase(), right.slice(0, -1), `${right}6`, `x${right.slice(1)}`]) {
    assertSimpleError(t, await tokenRequest(app, { clientSecret }), 401, 'Credenciais inválidas')
  }
  t.equal((await tokenRequest(app)).statusCode, 201)
})

t.test('400 validation when clientSecret is shorter than 8 or longer than 64, or fields are missing', async t => {
  const app = await buildTestApp(t)
  const short = await tokenRequest(app, { clientSecret: '1234567' })
  assertSimpleError(t, short, 400, /clientSecret/)
  const long = await tokenRequest(app, { clientSecret: 'x'.repeat(65) })
  assertSimpleError(t, long, 400, /clientSecret/)
  const missing = await tokenRequest(app, { body: {} })
  assertSimpleError(t, missing, 400)
  t.match(missing.json().message, /clientId/)
  t.match(missing.json().message, /clientSecret/)
  const notString = await tokenRequest(app, { body: { clientId: 1, clientSecret: 12345678 } })
  assertSimpleError(t, notString, 400)
  // Bounds are inclusive: 8 and 64 characters are valid lengths (the secret is then merely wrong).
  assertSimpleError(t, await tokenRequest(app, { clientSecret: 'x'.repeat(8) }), 401)
  assertSimpleError(t, await tokenRequest(app, { clientSecret: 'x'.repeat(64) }), 401)
})

t.test('403 for the certificate of another account with account 1 credentials, and the reverse', async t => {
  const app = await buildTestApp(t)
  const other = await newAccount(app)
  const res = await tokenRequest(app, { header: certHeader(other.certificate) })
  assertSimpleError(t, res, 403, 'Certificado não vinculado a esta conta')
  t.equal(res.json().error, 'Forbidden')
  const reverse = await tokenRequest(app, { clientId: other.clientId, clientSecret: other.clientSecret })
  assertSimpleError(t, reverse, 403)
})

t.test('403 for a valid certificate linked to no account', async t => {
  const app = await buildTestApp(t)
  const stray = await generateClientCertificate('STRAY CLIENT', 99, Date.parse('2026-03-10T15:00:00.000Z'))
  const res = await tokenRequest(app, { header: certHeader(stray.certificate) })
  assertSimpleError(t, res, 403, 'Certificado não vinculado a esta conta')
})

t.test('the header is checked before the credentials: no certificate and a wrong secret is still 400', async t => {
  const app = await buildTestApp(t)
  assertSimpleError(t, await tokenRequest(app, { header: null, clientSecret: 'wrong-secret-123' }), 400)
})
