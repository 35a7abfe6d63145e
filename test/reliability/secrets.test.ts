import t from 'tap'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { call, certHeaderOf, startProcess, type SandboxProcess } from '../helpers/reliability.js'

/**
 * Secrets never leak (docs/reliability.md): the real process at log level debug takes token issuance (good and bad
 * credentials, with the certificate header), authenticated calls, errors, a 500 and account creation;
 * neither the clientSecret, the bearer token, the certificate (PEM or its percent-encoded header), the
 * private keys nor the admin token appear in its logs or in GET /__sandbox/requests.
 *
 * The journal keeps headers and bodies (docs/testing.md, See what your integration did): each credential is proved masked there, in the log,
 * in the snapshot export and in the --data file, with values that only ever travelled in requests (the
 * state holds an account's own clientSecret and certificate by design: it checks them).
 */
const ADMIN = 'admin-token-of-the-secrets-test'
const FIXTURE_SECRET = 'pix-sandbox-secret-2026'
const FIXTURE_CERT = readFileSync(new URL('../../fixtures/certs/default-client.crt.pem', import.meta.url), 'utf8')
const FIXTURE_KEY = readFileSync(new URL('../../fixtures/certs/default-client.key.pem', import.meta.url), 'utf8')

const WRONG_SECRET = 'a-client-secret-that-only-a-request-carried'
const FOREIGN_CERT_MARK = 'MIIforeignCertificateThatNoAccountHoldsAtAll0123456789'
const FOREIGN_CERT_HEADER = encodeURIComponent(`-----BEGIN CERTIFICATE-----\n${FOREIGN_CERT_MARK}\n-----END CERTIFICATE-----\n`)

/** Distinctive pieces of a PEM: every base64 line long enough not to occur by chance. */
const pemPieces = (pem: string): string[] => pem.split('\n').filter(l => l.length >= 40 && !l.startsWith('-----'))

t.test('no secret in the logs or the request journal', async t => {
  let proc: SandboxProcess | undefined
  t.teardown(() => proc?.kill('SIGKILL'))
  const dir = mkdtempSync(join(tmpdir(), 'pix-secrets-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const dataFile = join(dir, 'state.json')
  proc = await startProcess(['--log-level', 'debug', '--log-format', 'json', '--admin-token', ADMIN, '--seed', 'secrets-seed', '--data', dataFile])
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
  // A certificate header no account holds, a secret pasted into another field, a token in a body field.
  t.equal((await call(base, 'POST', '/api/auth/token', { headers: { 'x-ssl-client-cert': FOREIGN_CERT_HEADER }, body: { clientId: acc.clientId, clientSecret: WRONG_SECRET, note: WRONG_SECRET } })).status, 401)
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

  t.equal((await call(base, 'POST', '/__sandbox/accounts/1/balance', { headers: admin, body: { credit: 1, access_token: tokens[0] } })).status, 200)
  const journal = await call(base, 'GET', '/__sandbox/requests?limit=1000', { headers: admin })
  t.equal(journal.status, 200)
  const entries = journal.json().requests
  t.ok(entries.length >= 20, `${entries.length} requests in the journal`)
  t.ok(entries.some((e: any) => e.request.body?.clientSecret === '[masked]'), 'the journal keeps bodies, with the credential marked where it was')
  t.ok(entries.some((e: any) => e.request.headers['x-ssl-client-cert'] === '[masked]' && e.request.headers.authorization === undefined))
  t.ok(entries.some((e: any) => e.request.headers.authorization === '[masked]'))
  t.ok(entries.some((e: any) => e.request.headers['x-sandbox-admin-token'] === '[masked]'))
  t.ok(entries.some((e: any) => e.response.body?.access_token === '[masked]'))
  t.ok(entries.some((e: any) => e.response.body?.privateKey === '[masked]'))
  const snapshot = await call(base, 'GET', '/__sandbox/snapshot', { headers: admin })
  t.equal(snapshot.status, 200)
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

  // The data file and the journals beside it, as the process left them.
  const data = readdirSync(dir).map(f => readFileSync(join(dir, f), 'utf8')).join('\n')
  t.ok(data.includes(acc.clientId), 'the data file holds the state (the check below is not vacuous)')
  t.ok(snapshot.body.includes(acc.clientId))
  const sentOnly: Record<string, string[]> = {
    clientSecret: [WRONG_SECRET],
    access_token: tokens.flatMap(tk => [tk, tk.split('.')[2]]),
    Authorization: [...tokens, ADMIN],
    'X-SSL-Client-Cert': [FOREIGN_CERT_MARK],
    privateKey: [...pemPieces(acc.privateKey), ...pemPieces(FIXTURE_KEY)],
    'X-Sandbox-Admin-Token': [ADMIN, 'wrong-admin-token'],
  }
  for (const [what, values] of Object.entries(sentOnly)) {
    t.notOk(values.some(v => logs.includes(v)), `${what}: not in the log`)
    t.notOk(values.some(v => journal.body.includes(v)), `${what}: not in the journal`)
    t.notOk(values.some(v => snapshot.body.includes(v)), `${what}: not in the snapshot`)
    t.notOk(values.some(v => data.includes(v)), `${what}: not in the --data file`)
  }
})
