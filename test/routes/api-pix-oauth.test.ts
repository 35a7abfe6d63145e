import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { OAUTH_SCOPES } from '../../server/domain/scopes.js'
import { bearer, buildTestApp, certHeader, fixtureAccount, newAccount } from '../helpers/app.js'

/**
 * POST /oauth/token, API Pix's sign-in as PSPs do it (docs/api-pix.md, OAuth): HTTP Basic client
 * credentials, grant_type=client_credentials form-encoded or as JSON, the client certificate of the
 * account, and RFC 6749's answers and errors. The token it issues works on the gateway too.
 */

const basic = (clientId: string, clientSecret: string) => `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`
const FIXTURE_BASIC = basic(fixtureAccount.clientId, fixtureAccount.clientSecret)

function tokenRequest (app: FastifyInstance, opts: { authorization?: string, certificate?: string | null, form?: string, json?: Record<string, unknown>, contentType?: string }) {
  const headers: Record<string, string> = {}
  if (opts.authorization !== undefined) headers.authorization = opts.authorization
  if (opts.certificate !== null) headers['x-ssl-client-cert'] = certHeader(opts.certificate ?? fixtureAccount.certificate)
  if (opts.form !== undefined) headers['content-type'] = opts.contentType ?? 'application/x-www-form-urlencoded'
  return app.inject({ method: 'POST', url: '/oauth/token', headers, payload: opts.form ?? opts.json ?? {} })
}

t.test('form-encoded client credentials with Basic: 200 with OAuth 2.0\'s answer, never cached, carrying the account\'s whole grant', async t => {
  const app = await buildTestApp(t)
  const res = await tokenRequest(app, { authorization: FIXTURE_BASIC, form: 'grant_type=client_credentials' })
  t.equal(res.statusCode, 200, res.body)
  t.same(Object.keys(res.json()).sort(), ['access_token', 'expires_in', 'scope', 'token_type'])
  t.match(res.json(), { token_type: 'Bearer', expires_in: 1800 })
  t.same(res.json().scope.split(' ').sort(), [...OAUTH_SCOPES].sort(), 'API Pix\'s scopes and Efí\'s (docs/efi.md)')
  t.equal(res.headers['cache-control'], 'no-store')
  t.equal(res.headers.pragma, 'no-cache')
  // The token works on the gateway as the gateway's own does.
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(res.json().access_token) })).statusCode, 200)
})

t.test('JSON bodies, as some SDKs send them, and client_id and client_secret in the body instead of Basic', async t => {
  const app = await buildTestApp(t)
  const json = await tokenRequest(app, { authorization: FIXTURE_BASIC, json: { grant_type: 'client_credentials', scope: 'cob.read cob.write' } })
  t.equal(json.statusCode, 200, json.body)
  t.equal(json.json().scope, 'cob.read cob.write', 'the scopes asked for')
  const inBody = await tokenRequest(app, { form: `grant_type=client_credentials&client_id=${fixtureAccount.clientId}&client_secret=${fixtureAccount.clientSecret}` })
  t.equal(inBody.statusCode, 200, inBody.body)
  const both = await tokenRequest(app, { authorization: FIXTURE_BASIC, form: `grant_type=client_credentials&client_id=${fixtureAccount.clientId}&client_secret=${fixtureAccount.clientSecret}` })
  t.equal(both.statusCode, 400)
  t.same(both.json().error, 'invalid_request', 'one way of authenticating per request')
})

t.test('bad client credentials are 401 invalid_client with WWW-Authenticate: Basic, whatever is wrong', async t => {
  const app = await buildTestApp(t)
  const other = await newAccount(app)
  const cases: Array<[string, Parameters<typeof tokenRequest>[1]]> = [
    ['a wrong secret', { authorization: basic(fixtureAccount.clientId, 'wrong-secret-1234'), form: 'grant_type=client_credentials' }],
    ['an unknown client', { authorization: basic('nobody', 'wrong-secret-1234'), form: 'grant_type=client_credentials' }],
    ['no credentials at all', { form: 'grant_type=client_credentials' }],
    ['a Basic header that is not base64 of id:secret', { authorization: 'Basic bm90LWEtcGFpcg==', form: 'grant_type=client_credentials' }],
    ['no client certificate', { authorization: FIXTURE_BASIC, certificate: null, form: 'grant_type=client_credentials' }],
    ['the certificate of another account', { authorization: FIXTURE_BASIC, certificate: other.certificate, form: 'grant_type=client_credentials' }],
    ['a certificate that is no PEM', { authorization: FIXTURE_BASIC, certificate: 'not a certificate', form: 'grant_type=client_credentials' }],
  ]
  for (const [why, opts] of cases) {
    const res = await tokenRequest(app, opts)
    t.equal(res.statusCode, 401, why)
    t.same(Object.keys(res.json()).sort(), ['error', 'error_description'], why)
    t.equal(res.json().error, 'invalid_client', why)
    t.equal(res.headers['www-authenticate'], 'Basic realm="pix-sandbox"', why)
    t.equal(res.headers['cache-control'], 'no-store', why)
  }
})

t.test('RFC 6749 section 5.2: unsupported_grant_type, invalid_scope, invalid_request', async t => {
  const app = await buildTestApp(t)
  const limited = await newAccount(app, { scopes: ['cob.read'] })
  const cases: Array<[string, Parameters<typeof tokenRequest>[1], string]> = [
    ['another grant', { authorization: FIXTURE_BASIC, form: 'grant_type=password' }, 'unsupported_grant_type'],
    ['no grant_type', { authorization: FIXTURE_BASIC, form: 'scope=cob.read' }, 'invalid_request'],
    ['a parameter twice', { authorization: FIXTURE_BASIC, form: 'grant_type=client_credentials&grant_type=client_credentials' }, 'invalid_request'],
    ['a scope API Pix does not have', { authorization: FIXTURE_BASIC, form: 'grant_type=client_credentials&scope=cob.read%20cob.delete' }, 'invalid_scope'],
    ['a scope outside the account\'s grant', { authorization: basic(limited.clientId, limited.clientSecret), certificate: limited.certificate, form: 'grant_type=client_credentials&scope=cob.write' }, 'invalid_scope'],
  ]
  for (const [why, opts, error] of cases) {
    const res = await tokenRequest(app, opts)
    t.equal(res.statusCode, 400, why)
    t.equal(res.json().error, error, why)
    t.type(res.json().error_description, 'string', why)
  }
  const text = await tokenRequest(app, { authorization: FIXTURE_BASIC, form: 'grant_type=client_credentials', contentType: 'text/plain' })
  t.equal(text.statusCode, 415)
  t.equal(text.json().error, 'invalid_request')
})

t.test('an account created with some scopes gets tokens of those only, and its gateway token carries the same grant', async t => {
  const app = await buildTestApp(t)
  const limited = await newAccount(app, { scopes: ['cob.read', 'pix.read', 'cob.read'] })
  const view = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${limited.accountId}` })).json()
  t.same(view.scopes, ['cob.read', 'pix.read'], 'persisted on the account, once each')
  const res = await tokenRequest(app, { authorization: basic(limited.clientId, limited.clientSecret), certificate: limited.certificate, form: 'grant_type=client_credentials' })
  t.equal(res.json().scope, 'cob.read pix.read')
  t.same((await app.inject({ method: 'GET', url: '/__sandbox/accounts/1' })).json().scopes, [...OAUTH_SCOPES], 'every scope by default')
  const bad = await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: { scopes: ['cob.delete'] } })
  t.equal(bad.statusCode, 400, 'a scope API Pix does not have is refused at creation')
})

t.test('the token names the account\'s incarnation: a reset of the account ends it', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const token = (await tokenRequest(app, { authorization: basic(acc.clientId, acc.clientSecret), certificate: acc.certificate, form: 'grant_type=client_credentials' })).json().access_token
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(token) })).statusCode, 200)
  await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { accountId: acc.accountId } })
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(token) })).statusCode, 401)
})
