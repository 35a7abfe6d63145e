import t from 'tap'
import { readFileSync } from 'node:fs'
import { call, certHeaderOf, startProcess, type SandboxProcess } from '../helpers/reliability.js'

/**
 * Secrets never leak (issue 7): the real process at log level debug takes token issuance (good and bad
 * credentials, with the certificate header), authenticated calls, errors, a 500 and account creation;
 * neither the clientSecret, the bearer token, the certificate (PEM or its percent-encoded header), the
 * private keys nor the admin token appear in its logs or in GET /__sandbox/requests.
 */
const ADMIN = 'admin-token-of-the-secrets-test'
const FIXTURE_SECRET = 'pix-sandbox-secret-2026'
const FIXTURE_CERT = readFileSync(new URL('../../fixtures/certs/default-client.crt.pem', import.meta.url), 'utf8')
const FIXTURE_KEY = readFileSync(new URL('../../fixtures/certs/default-client.key.pem', import.meta.url), 'utf8')

/** Distinctive pieces of a PEM: every base64 line long enough not to occur by chance. */
const pemPieces = (pem: string): string[] => pem.split('\n').filter(l => l.length >= 40 && !l.startsWith('-----'))

t.test('no secret in the logs or the request journal', async t => {
  let proc: SandboxProcess | undefined
  t.teardown(() => proc?.kill('SIGKILL'))
  proc = await startProcess(['--log-level', 'debug', '--admin-token', ADMIN, '--seed', 'secrets-seed'])
  const admin = { 'x-sandbox-admin-token': ADMIN }
  const base = proc.base

  const created = await call(base, 'POST', '/__sandbox/accounts', { headers: admin, body: { balance: 100 } })
  t.equal(created.status, 201)
  const acc = created.json()
  t.ok(acc.clientSecret && acc.privateKey && acc.certificate, 'the creation answer carries the credentials (that is its job)')

  const tokens: string[] = []
  for (const creds of [{ clientId: acc.clientId, clientSecret: acc.clientSecret, cert: acc.certificate }, { clientId: 'pix-sandbox-client', clientSecret: FIXTURE_SECRET, cert: FIXTURE_CERT }]) {
    const res = await call(base, 'POST', '/api/auth/token', { headers: { 'x-ssl-client-cert': certHeaderOf(creds.cert) }, body: { clientId: creds.clientId, clientSecret: creds.clientSecret } })
    t.equal(res.status, 201)
    tokens.push(res.json().access_token)
  }
  // Failures that might log what they refused.
  t.equal((await call(base, 'POST', '/api/auth/token', { headers: { 'x-ssl-client-cert': certHeaderOf(acc.certificate) }, body: { clientId: acc.clientId, clientSecret: acc.clientSecret + 'x' } })).status, 401)
  t.equal((await call(base, 'POST', '/api/auth/token', { headers: { 'x-ssl-client-cert': certHeaderOf(FIXTURE_CERT) }, body: { clientId: acc.clientId, clientSecret: acc.clientSecret } })).status, 403)
  t.equal((await call(base, 'POST', '/api/auth/token', { headers: { 'x-ssl-client-cert': certHeaderOf(acc.certificate) }, body: `{"clientId":"${acc.clientId}","clientSecret":"${acc.clientSecret}"` })).status, 400)
  t.equal((await call(base, 'POST', '/api/auth/token', { headers: { 'x-ssl-client-cert': certHeaderOf(acc.certificate) }, body: { clientId: acc.clientId, clientSecret: acc.clientSecret, extra: acc.privateKey } })).status, 201)
  for (const token of tokens) {
    const auth = { authorization: `Bearer ${token}` }
    t.equal((await call(base, 'GET', '/balance', { headers: auth })).status, 200)
    t.equal((await call(base, 'GET', '/accounts/balances', { headers: auth })).status, 200)
    t.equal((await call(base, 'POST', '/api/pix/cash-out', { headers: auth, body: { value: 1, externalId: `s-${token.slice(-6)}`, details: { key: 'joao.souza@example.com', keyType: 'EMAIL', name: 'Joao', document: '03742693433' } } })).status, 201)
    t.equal((await call(base, 'GET', '/api/med', { headers: { ...auth, 'x-sandbox-scenario': 'INTERNAL_ERROR' } })).status, 500, 'a 500 (error logging path)')
    t.equal((await call(base, 'GET', '/balance', { headers: { authorization: `Bearer ${token}x` } })).status, 401, 'a tampered token')
    t.equal((await call(base, 'GET', `/balance?token=${encodeURIComponent(token)}`, { headers: auth })).status, 200)
  }
  t.equal((await call(base, 'GET', '/__sandbox/accounts', { headers: { 'x-sandbox-admin-token': 'wrong-admin-token' } })).status, 401)
  t.equal((await call(base, 'GET', '/__sandbox/accounts', { headers: { authorization: `Bearer ${ADMIN}` } })).status, 200)

  const journal = await call(base, 'GET', '/__sandbox/requests?limit=1000', { headers: admin })
  t.equal(journal.status, 200)
  t.ok(journal.json().requests.length >= 20, `${journal.json().requests.length} requests in the journal`)
  proc.kill('SIGTERM')
  await proc.exited
  const logs = proc.output()
  t.ok(logs.split('\n').filter(l => l.includes('"msg":"request"')).length >= 20, 'the log has one line per request (it was really written)')

  const secrets: Record<string, string[]> = {
    'clientSecret of the new account': [acc.clientSecret],
    'clientSecret of the fixture account': [FIXTURE_SECRET],
    'bearer tokens': tokens.flatMap(tk => [tk, tk.split('.')[2]]),
    'admin token': [ADMIN],
    'certificate PEM': [...pemPieces(acc.certificate), ...pemPieces(FIXTURE_CERT)],
    'certificate header (percent-encoded)': [certHeaderOf(acc.certificate).slice(40, 120), certHeaderOf(FIXTURE_CERT).slice(40, 120)],
    'private keys': [...pemPieces(acc.privateKey), ...pemPieces(FIXTURE_KEY)],
  }
  for (const [what, values] of Object.entries(secrets)) {
    t.notOk(values.some(v => logs.includes(v)), `no ${what} in the logs`)
    t.notOk(values.some(v => journal.body.includes(v)), `no ${what} in GET /__sandbox/requests`)
  }
})
