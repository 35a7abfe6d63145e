import t, { type Test } from 'tap'
import { Agent, request } from 'undici'
import { buildApp } from '../../server/app.js'
import { generateClientCertificate } from '../../server/auth/certificates.js'
import { T0, certHeader, fixtureAccount, newAccount } from '../helpers/app.js'

/**
 * Real mutual TLS: the sandbox serves HTTPS, asks for a client certificate, and the token endpoint
 * uses the peer certificate when X-SSL-Client-Cert is absent (the header still wins when present).
 */

async function httpsApp (t: Test) {
  const server = await generateClientCertificate('localhost', 7, Date.now())
  const app = await buildApp({
    config: { seed: 'mtls-seed', clock: 'frozen', clockStart: T0 },
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

t.test('the header wins over the peer certificate when both are present', async t => {
  const { app, address } = await httpsApp(t)
  const other = await newAccount(app)
  const res = await request(`${address}/api/auth/token`, {
    method: 'POST',
    dispatcher: agent(t, { cert: fixtureAccount.certificate, key: fixtureAccount.privateKey }),
    headers: { 'content-type': 'application/json', 'x-ssl-client-cert': certHeader(other.certificate) },
    body,
  })
  t.equal(res.statusCode, 403, 'the header names a certificate of another account')
  await res.body.dump()
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
