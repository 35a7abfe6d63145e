import t, { type Test } from 'tap'
import { Agent, request } from 'undici'
import { buildApp } from '../../server/app.js'
import type { Config } from '../../server/config.js'
import { generateClientCertificate } from '../../server/auth/certificates.js'
import { T0, certHeader, fixtureAccount, newAccount } from '../helpers/app.js'

/**
 * Real mutual TLS: the sandbox serves HTTPS, asks for a client certificate, and the tokens take the
 * peer certificate of the handshake, which proves the client holds its key. X-SSL-Client-Cert counts
 * under TLS only when the sandbox is told a TLS terminator in front of it sets it (docs/api-pix.md, OAuth).
 */

async function httpsApp (t: Test, config: Partial<Config> = {}) {
  const server = await generateClientCertificate('localhost', 7, Date.now())
  const app = await buildApp({
    config: { seed: 'mtls-seed', clock: 'frozen', clockStart: T0, ...config },
    https: { cert: server.certificate, key: server.privateKey, requestCert: true, rejectUnauthorized: false },
  })
  t.teardown(() => app.close())
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, address, serverCert: server.certificate }
}

const agent = (t: Test, client?: { cert: string, key: string }) => {
  const a = new Agent({ connect: { rejectUnauthorized: false, ...(client ?? {}) } })
  t.teardown(() => a.close())
  return a
}

const body = JSON.stringify({ clientId: fixtureAccount.clientId, clientSecret: fixtureAccount.clientSecret })

t.test('a token over HTTPS with the fixture client certificate and no header: 201', async t => {
  const { address } = await httpsApp(t)
  t.match(address, /^https:\/\//)
  const dispatcher = agent(t, { cert: fixtureAccount.certificate, key: fixtureAccount.privateKey })
  const res = await request(`${address}/api/auth/token`, { method: 'POST', dispatcher, headers: { 'content-type': 'application/json' }, body })
  t.equal(res.statusCode, 201)
  const token = (await res.body.json() as { access_token: string, token_type: string }).access_token
  const balance = await request(`${address}/balance`, { dispatcher, headers: { authorization: `Bearer ${token}` } })
  t.equal(balance.statusCode, 200)
  t.equal((await balance.body.json() as { netBalance: number }).netBalance, 10000)
})

t.test('no client certificate at all: 400', async t => {
  const { address } = await httpsApp(t)
  const res = await request(`${address}/api/auth/token`, { method: 'POST', dispatcher: agent(t), headers: { 'content-type': 'application/json' }, body })
  t.equal(res.statusCode, 400)
  const err = await res.body.json() as Record<string, unknown>
  t.same(Object.keys(err).sort(), ['error', 'message', 'statusCode'])
  t.match(err.message, /Certificado do cliente ausente/)
})

t.test('the peer certificate of another account is 403; an unlinked one is 403', async t => {
  const { app, address } = await httpsApp(t)
  const other = await newAccount(app)
  const res = await request(`${address}/api/auth/token`, {
    method: 'POST',
    dispatcher: agent(t, { cert: other.certificate, key: other.privateKey }),
    headers: { 'content-type': 'application/json' },
    body,
  })
  t.equal(res.statusCode, 403)
  await res.body.dump()
  // The created account's own credentials with its own certificate over mTLS work.
  const own = await request(`${address}/api/auth/token`, {
    method: 'POST',
    dispatcher: agent(t, { cert: other.certificate, key: other.privateKey }),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: other.clientId, clientSecret: other.clientSecret }),
  })
  t.equal(own.statusCode, 201)
  await own.body.dump()
  const stray = await generateClientCertificate('STRAY', 9, Date.now())
  const unlinked = await request(`${address}/api/auth/token`, {
    method: 'POST',
    dispatcher: agent(t, { cert: stray.certificate, key: stray.privateKey }),
    headers: { 'content-type': 'application/json' },
    body,
  })
  t.equal(unlinked.statusCode, 403)
  await unlinked.body.dump()
})

/** A token asked for with `clientId`'s credentials over `dispatcher`, the header naming `headerCert` (when given), through both doors. */
async function tokens (address: string, dispatcher: Agent, creds: { clientId: string, clientSecret: string }, headerCert?: string) {
  const header: Record<string, string> = headerCert === undefined ? {} : { 'x-ssl-client-cert': certHeader(headerCert) }
  const gateway = await request(`${address}/api/auth/token`, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/json', ...header },
    body: JSON.stringify({ clientId: creds.clientId, clientSecret: creds.clientSecret }),
  })
  const oauth = await request(`${address}/oauth/token`, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`, ...header },
    body: 'grant_type=client_credentials',
  })
  return { gateway: { status: gateway.statusCode, body: await gateway.body.json() as Record<string, unknown> }, oauth: { status: oauth.statusCode, body: await oauth.body.json() as Record<string, unknown> } }
}

t.test('under TLS the handshake\'s certificate is the client certificate: another account\'s public certificate in X-SSL-Client-Cert gets no token', async t => {
  const { app, address } = await httpsApp(t)
  const victim = await newAccount(app)
  // The attacker holds its own key pair (the fixture account's) and the victim's public certificate and secret.
  const own = await tokens(address, agent(t, { cert: fixtureAccount.certificate, key: fixtureAccount.privateKey }), victim, victim.certificate)
  t.equal(own.gateway.status, 403, 'the gateway\'s token: the handshake\'s certificate is not linked to the victim')
  t.match(own.gateway.body.message, /Certificado não vinculado/)
  t.equal(own.oauth.status, 401, 'API Pix\'s token: invalid_client')
  t.equal(own.oauth.body.error, 'invalid_client')
  // No certificate in the handshake at all: the header does not stand in for one.
  const none = await tokens(address, agent(t), victim, victim.certificate)
  t.equal(none.gateway.status, 400)
  t.match(none.gateway.body.message, /X-SSL-Client-Cert não vale sob TLS.*--trust-client-cert-header/)
  t.equal(none.oauth.status, 401)
  t.match(none.oauth.body.error_description, /--trust-client-cert-header/)
  // The victim itself, with its key in the handshake, still gets its tokens, the header or not.
  const real = await tokens(address, agent(t, { cert: victim.certificate, key: victim.privateKey }), victim, fixtureAccount.certificate)
  t.equal(real.gateway.status, 201)
  t.equal(real.oauth.status, 200)
})

t.test('behind a TLS terminator that sets it (trustClientCertHeader), the header is the certificate, also over HTTPS', async t => {
  const { app, address } = await httpsApp(t, { trustClientCertHeader: true })
  const other = await newAccount(app)
  const viaHeader = await tokens(address, agent(t), other, other.certificate)
  t.equal(viaHeader.gateway.status, 201, 'the header alone')
  t.equal(viaHeader.oauth.status, 200)
  const both = await tokens(address, agent(t, { cert: fixtureAccount.certificate, key: fixtureAccount.privateKey }), fixtureAccount, other.certificate)
  t.equal(both.gateway.status, 403, 'the header wins over the handshake: it names a certificate of another account')
})

t.test('told not to trust the header, plain HTTP issues no token from it', async t => {
  const app = await buildApp({ config: { seed: 'mtls-seed', clock: 'frozen', clockStart: T0, trustClientCertHeader: false } })
  t.teardown(() => app.close())
  const res = await app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': certHeader(fixtureAccount.certificate) }, payload: { clientId: fixtureAccount.clientId, clientSecret: fixtureAccount.clientSecret } })
  t.equal(res.statusCode, 400)
  t.match(res.json().message, /X-SSL-Client-Cert/)
})

t.test('API Pix\'s OAuth token takes the peer certificate of the TLS handshake, with the same rule that it is the account\'s', async t => {
  const { app, address } = await httpsApp(t)
  const other = await newAccount(app)
  const form = { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${fixtureAccount.clientId}:${fixtureAccount.clientSecret}`).toString('base64')}` }
  const res = await request(`${address}/oauth/token`, { method: 'POST', dispatcher: agent(t, { cert: fixtureAccount.certificate, key: fixtureAccount.privateKey }), headers: form, body: 'grant_type=client_credentials' })
  t.equal(res.statusCode, 200)
  const token = (await res.body.json() as { access_token: string }).access_token
  const balance = await request(`${address}/balance`, { dispatcher: agent(t), headers: { authorization: `Bearer ${token}` } })
  t.equal(balance.statusCode, 200)
  await balance.body.dump()
  const foreign = await request(`${address}/oauth/token`, { method: 'POST', dispatcher: agent(t, { cert: other.certificate, key: other.privateKey }), headers: form, body: 'grant_type=client_credentials' })
  t.equal(foreign.statusCode, 401, 'the certificate of another account')
  t.equal((await foreign.body.json() as { error: string }).error, 'invalid_client')
  const none = await request(`${address}/oauth/token`, { method: 'POST', dispatcher: agent(t), headers: form, body: 'grant_type=client_credentials' })
  t.equal(none.statusCode, 401, 'no certificate')
  await none.body.dump()
})
