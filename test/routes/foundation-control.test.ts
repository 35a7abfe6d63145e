import t from 'tap'
import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { T0, balanceOf, bearer, buildTestApp, fixtureAccount, newAccount, tokenFor } from '../helpers/app.js'
import { buildApp } from '../../server/app.js'

/** The control plane (docs/control-plane.md): health, accounts, reset, clock, snapshot, request journal, headers, admin token. */

const defaults = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8')).accountDefaults
const PEM_CERT = /^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+-----END CERTIFICATE-----\n?$/
const PEM_KEY = /^-----BEGIN PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+-----END PRIVATE KEY-----\n?$/

t.test('health: 200 with status, version, seed and sandbox time', async t => {
  const app = await buildTestApp(t)
  const res = await app.inject({ method: 'GET', url: '/__sandbox/health' })
  t.equal(res.statusCode, 200)
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
  t.same(res.json(), { status: 'ok', version: pkg.version, seed: 'test-seed', now: T0 })
})

t.test('a frozen clock starts exactly at clockStart, however slow the wall clock reads', async t => {
  let wall = Date.parse('2030-01-01T00:00:00.000Z')
  const app = await buildApp({ realNow: () => wall++, config: { clock: 'frozen', clockStart: T0, seed: 's' } })
  t.teardown(() => app.close())
  t.equal(app.sandbox.clock.now(), Date.parse(T0))
})

t.test('a random seed is made and reported when none is given', async t => {
  const app = await buildTestApp(t, { seed: undefined })
  const seed = (await app.inject({ method: 'GET', url: '/__sandbox/health' })).json().seed
  t.match(seed, /^[0-9a-f]{12}$/)
})

t.test('POST /__sandbox/accounts: 201 with credentials, certificate, key, and the settings echoed over the fixture defaults', async t => {
  const app = await buildTestApp(t)
  const res = await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: { balance: 500.5, providerGroup: 'A', fee: 1.25, limits: { perTransaction: 100 } } })
  t.equal(res.statusCode, 201)
  const a = res.json()
  t.type(a.accountId, 'number')
  t.ok(Number.isInteger(a.accountId) && a.accountId > 1, 'a new id after the fixture account')
  t.type(a.clientId, 'string')
  t.ok(a.clientSecret.length >= 8 && a.clientSecret.length <= 64, 'the secret fits the 8-64 rule')
  t.match(a.certificate, PEM_CERT)
  t.match(a.privateKey, PEM_KEY)
  t.same(a.balance, { available: 500.5, blocked: 0, gross: 500.5 })
  t.equal(a.providerGroup, 'A')
  t.equal(a.fee, 1.25)
  t.same(a.limits, { perTransaction: 100, daily: defaults.limits.daily, nightly: defaults.limits.nightly })
  t.equal(a.documentCheck, defaults.documentCheck)
  t.equal(a.cashInMinExpirationSeconds, defaults.cashInMinExpirationSeconds)
  t.equal(a.splitFrequency, defaults.splitFrequency)
  t.equal(a.invariantHolds, true)
  t.equal(a.createdAt, T0)
  // The private key really belongs to the certificate, and the certificate is a client certificate.
  const cert = new X509Certificate(a.certificate)
  t.ok(cert.checkPrivateKey(createPrivateKey(a.privateKey)), 'key matches certificate')
  t.same(createPublicKey(a.privateKey).export({ format: 'jwk' }), cert.publicKey.export({ format: 'jwk' }))
  t.same(a.certificateFingerprints, [cert.fingerprint256])
  // And the credentials get a token that reads this account's balance.
  const token = await tokenFor(app, a)
  const balance = await app.inject({ method: 'GET', url: '/balance', headers: bearer(token) })
  t.equal(balance.json().netBalance, 500.5)
  // GET shows the same account, without the private key (shown only once).
  const view = await app.inject({ method: 'GET', url: `/__sandbox/accounts/${a.accountId}` })
  t.equal(view.statusCode, 200)
  const { privateKey, ...rest } = a
  t.same(view.json(), rest)
  t.notOk('privateKey' in view.json())
})

t.test('POST /__sandbox/accounts with no body takes every fixture default', async t => {
  const app = await buildTestApp(t)
  const res = await app.inject({ method: 'POST', url: '/__sandbox/accounts' })
  t.equal(res.statusCode, 201)
  const a = res.json()
  t.equal(a.balance.available, defaults.balance)
  t.equal(a.providerGroup, defaults.providerGroup)
  t.equal(a.fee, defaults.fee)
  t.same(a.limits, defaults.limits)
})

t.test('POST /__sandbox/accounts refuses bad settings and creates nothing', async t => {
  const app = await buildTestApp(t)
  const bad: unknown[] = [
    { balance: -1 },
    { balance: 10.005 },
    { fee: 0.001 },
    { limits: { daily: 1.234 } },
    { providerGroup: 'F' },
    { fee: '0.50' },
    { limits: { perTransaction: -5 } },
  ]
  for (const payload of bad) {
    const res = await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: payload as Record<string, unknown> })
    t.equal(res.statusCode, 400, JSON.stringify(payload))
    t.equal(res.json().code, 'HTTP_ERROR')
  }
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts' })).json().accounts.length, 1)
  const ok = await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: { balance: 0.29, fee: 0 } })
  t.equal(ok.statusCode, 201, '0.29 and 0 are exact amounts')
  t.equal(ok.json().balance.available, 0.29)
})

t.test('two created accounts are isolated', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 1 })
  const b = await newAccount(app, { balance: 2 })
  t.not(a.accountId, b.accountId)
  t.not(a.clientId, b.clientId)
  t.not(a.clientSecret, b.clientSecret)
  t.not(a.certificate, b.certificate)
  t.not(a.privateKey, b.privateKey)
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(a.token) })).json().netBalance, 1)
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(b.token) })).json().netBalance, 2)
})

t.test('GET /__sandbox/accounts/:id: the fixture account, 404 for an unknown one, 400 for a bad id', async t => {
  const app = await buildTestApp(t)
  const fixture = await app.inject({ method: 'GET', url: '/__sandbox/accounts/1' })
  t.equal(fixture.statusCode, 200)
  t.equal(fixture.json().clientId, fixtureAccount.clientId)
  t.equal(fixture.json().clientSecret, fixtureAccount.clientSecret)
  t.equal(fixture.json().certificate.trim(), fixtureAccount.certificate.trim())
  t.equal(fixture.json().balance.available, 10000)
  const missing = await app.inject({ method: 'GET', url: '/__sandbox/accounts/42' })
  t.equal(missing.statusCode, 404)
  t.same(missing.json(), { statusCode: 404, code: 'ACCOUNT_NOT_FOUND', message: 'Account 42 not found', error: 'Not Found' })
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts/x' })).statusCode, 400)
})

t.test('reset of one account: opening balance back, credentials kept, its tokens ended, others untouched', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 50 })
  const b = await newAccount(app, { balance: 70 })
  await app.inject({ method: 'POST', url: `/__sandbox/accounts/${a.accountId}/balance`, payload: { credit: 25 } })
  await app.inject({ method: 'POST', url: `/__sandbox/accounts/${b.accountId}/balance`, payload: { credit: 5 } })
  t.equal((await balanceOf(app, a.accountId)).available, 75)
  const res = await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { accountId: a.accountId } })
  t.equal(res.statusCode, 200)
  t.same(res.json(), { reset: a.accountId })
  t.same(await balanceOf(app, a.accountId), { available: 50, blocked: 0, invariantHolds: true })
  const view = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${a.accountId}` })).json()
  t.equal(view.clientId, a.clientId)
  t.equal(view.clientSecret, a.clientSecret)
  t.equal(view.certificate, a.certificate)
  t.equal(view.totals.adjustments, 0)
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(a.token) })).statusCode, 401, 'a token issued before the reset no longer works')
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(await tokenFor(app, a)) })).json().netBalance, 50, 'the same credentials get a new one that does')
  t.equal((await balanceOf(app, b.accountId)).available, 75, 'the other account keeps its changes')
  const missing = await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { accountId: 999 } })
  t.equal(missing.statusCode, 404)
  t.equal(missing.json().code, 'ACCOUNT_NOT_FOUND')
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { accountId: 0 } })).statusCode, 400)
})

t.test('reset of everything: created accounts gone, fixture account back to its opening state', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app)
  await app.inject({ method: 'POST', url: '/__sandbox/accounts/1/balance', payload: { set: 1 } })
  const res = await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: {} })
  t.equal(res.statusCode, 200)
  t.same(res.json(), { reset: 'all' })
  const journal = (await app.inject({ method: 'GET', url: '/__sandbox/requests' })).json().requests
  t.same(journal.map((r: { path: string }) => r.path), ['/__sandbox/reset'], 'the journal starts over with the reset itself')
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/accounts/${a.accountId}` })).statusCode, 404)
  t.same(await balanceOf(app, 1), { available: 10000, blocked: 0, invariantHolds: true })
  const list = (await app.inject({ method: 'GET', url: '/__sandbox/accounts' })).json().accounts
  t.same(list.map((x: { accountId: number }) => x.accountId), [1])
  const again = await newAccount(app)
  t.equal(again.accountId, 2, 'ids start over')
})

t.test('clock: GET, advance, freeze, resume, set', async t => {
  const app = await buildTestApp(t)
  const clock = async () => (await app.inject({ method: 'GET', url: '/__sandbox/clock' })).json()
  const c0 = await clock()
  t.same({ now: c0.now, frozen: c0.frozen, pendingJobs: c0.pendingJobs, nextJobAt: c0.nextJobAt }, { now: T0, frozen: true, pendingJobs: 0, nextJobAt: null })
  t.type(c0.offsetMs, 'number')

  // A timed effect waits for the clock, is reported, and runs during the advance.
  let ranAt: number | null = null
  app.sandbox.scheduler.after(5000, 'test', () => { ranAt = app.sandbox.clock.now() })
  const c1 = await clock()
  t.equal(c1.pendingJobs, 1)
  t.equal(c1.nextJobAt, '2026-03-10T15:00:05.000Z')
  const adv = await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 60_000 } })
  t.equal(adv.statusCode, 200)
  t.equal(adv.json().now, '2026-03-10T15:01:00.000Z')
  t.equal(adv.json().pendingJobs, 0)
  t.equal(ranAt, Date.parse('2026-03-10T15:00:05.000Z'), 'the job saw its own due instant')

  for (const payload of [{ ms: -1 }, {}, { ms: 1.5 }, { ms: '10' }]) {
    const bad = await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload })
    t.equal(bad.statusCode, 400, `advance ${JSON.stringify(payload)} is 400`)
    t.equal(bad.json().code, 'HTTP_ERROR')
  }
  t.equal((await clock()).now, '2026-03-10T15:01:00.000Z', 'refused advances changed nothing')

  const set = await app.inject({ method: 'POST', url: '/__sandbox/clock/set', payload: { now: '2026-03-11T00:00:00.000Z' } })
  t.equal(set.statusCode, 200)
  t.equal(set.json().now, '2026-03-11T00:00:00.000Z')
  const back = await app.inject({ method: 'POST', url: '/__sandbox/clock/set', payload: { now: T0 } })
  t.equal(back.statusCode, 400)
  t.equal(back.json().code, 'CLOCK_BACKWARDS')
  t.same(Object.keys(back.json()).sort(), ['code', 'details', 'error', 'message', 'statusCode'])
  t.same(back.json().details, { now: '2026-03-11T00:00:00.000Z', requested: T0 })
  // A plain reset goes back to --clock-start, which may not be early enough: the message names the reset that is.
  t.match(back.json().message, `it is at 2026-03-11T00:00:00.000Z, and ${T0} is earlier`)
  t.match(back.json().message, `POST /__sandbox/reset with {"clockStart": "${T0}"} (pix-sandbox reset --clock-start ${T0})`)
  t.match(back.json().message, '--clock-start (SANDBOX_CLOCK_START)')
  t.notMatch(back.json().message, 'use reset to start over')
  t.equal((await clock()).now, '2026-03-11T00:00:00.000Z', 'unchanged after a refused set')
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/clock/set', payload: { now: 'tomorrow' } })).statusCode, 400)

  const resumed = await app.inject({ method: 'POST', url: '/__sandbox/clock/resume' })
  t.equal(resumed.statusCode, 200)
  t.equal(resumed.json().frozen, false)
  t.ok(Date.parse(resumed.json().now) >= Date.parse('2026-03-11T00:00:00.000Z'), 'resumes from where it stood')
  t.ok(Date.parse(resumed.json().now) < Date.parse('2026-03-11T00:01:00.000Z'), 'no jump to wall time')
  const frozen = await app.inject({ method: 'POST', url: '/__sandbox/clock/freeze' })
  t.equal(frozen.json().frozen, true)
  const n1 = (await clock()).now
  await new Promise(resolve => setTimeout(resolve, 15))
  t.equal((await clock()).now, n1, 'frozen again')
})

t.test('snapshot: GET then PUT restores balances and accounts', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 10 })
  const snap = await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })
  t.equal(snap.statusCode, 200)
  const state = snap.json()
  t.equal(state.format, 'pix-sandbox/state', 'the document carries the sandbox\'s format marker')
  t.equal(state.formatVersion, 2)
  t.ok(state.accounts[String(a.accountId)], 'the created account is in the snapshot')

  await app.inject({ method: 'POST', url: `/__sandbox/accounts/${a.accountId}/balance`, payload: { set: 999 } })
  await app.inject({ method: 'POST', url: '/__sandbox/accounts/1/balance', payload: { credit: -100 } })
  const c = await newAccount(app)

  const put = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: state })
  t.equal(put.statusCode, 200)
  t.same(put.json(), { accounts: 2, transactions: 0 })
  t.equal((await balanceOf(app, a.accountId)).available, 10)
  t.equal((await balanceOf(app, 1)).available, 10000)
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/accounts/${c.accountId}` })).statusCode, 404, 'an account created after the export is gone')
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(a.token) })).statusCode, 401, 'tokens issued before the import no longer work')
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(await tokenFor(app, a)) })).json().netBalance, 10, 'credentials are re-indexed: a new token works')
  t.same((await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json(), state, 'export after import is the same document')
  const next = await newAccount(app)
  t.equal(next.accountId, c.accountId, 'sequences come back with the snapshot')
})

t.test('snapshot: a bad document is refused and changes nothing', async t => {
  const app = await buildTestApp(t)
  for (const payload of [{}, { schemaVersion: 2, seq: {}, accounts: {}, transactions: {}, directory: {} }, { schemaVersion: 1, seq: {}, accounts: [], transactions: {}, directory: {} }]) {
    const res = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload })
    t.equal(res.statusCode, 400, JSON.stringify(payload))
    t.equal(res.json().code, 'HTTP_ERROR')
  }
  t.equal((await balanceOf(app, 1)).available, 10000)
  t.ok(await tokenFor(app))
})

t.test('GET /__sandbox/requests: newest first, filters, and no secret ever', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app)
  await app.inject({ method: 'GET', url: '/balance', headers: bearer(a.token) })
  await app.inject({ method: 'GET', url: '/accounts/balances', headers: bearer(a.token) })
  await app.inject({ method: 'GET', url: '/api/x' })
  const res = await app.inject({ method: 'GET', url: '/__sandbox/requests' })
  t.equal(res.statusCode, 200)
  const { requests } = res.json()
  t.same(requests.map((r: { method: string, path: string, status: number }) => `${r.method} ${r.path} ${r.status}`), [
    'GET /api/x 404',
    'GET /accounts/balances 200',
    'GET /balance 200',
    'POST /api/auth/token 201',
    'POST /__sandbox/accounts 201',
  ])
  t.equal(requests[1].accountId, a.accountId, 'authenticated requests name their account')
  t.equal(requests[3].accountId, a.accountId, 'the token request names the account it authenticated')
  t.equal(requests[0].accountId, null)
  for (const r of requests) {
    t.type(r.requestId, 'string')
    t.equal(r.at, T0)
    t.type(r.durationMs, 'number')
  }
  const text = res.body
  for (const secret of [a.clientSecret, a.token, a.privateKey.split('\n')[1], 'PRIVATE KEY', 'BEGIN CERTIFICATE']) t.notOk(text.includes(secret), `no ${secret.slice(0, 12)}… in the journal`)

  const filtered = (await app.inject({ method: 'GET', url: `/__sandbox/requests?accountId=${a.accountId}&limit=2` })).json().requests
  t.equal(filtered.length, 2)
  t.ok(filtered.every((r: { accountId: number }) => r.accountId === a.accountId))
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/requests?limit=0' })).statusCode, 400)
})

t.test('the journal is capped at journalSize', async t => {
  const app = await buildTestApp(t, { journalSize: 3 })
  for (let i = 0; i < 5; i++) await app.inject({ method: 'GET', url: `/nope/${i}` })
  const { requests } = (await app.inject({ method: 'GET', url: '/__sandbox/requests' })).json()
  t.same(requests.map((r: { path: string }) => r.path), ['/nope/4', '/nope/3', '/nope/2'])
})

t.test('every response has x-request-id and x-sandbox-version; a sane incoming x-request-id is echoed', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  const seen = new Set<string>()
  for (const req of [
    { method: 'GET' as const, url: '/__sandbox/health' },
    { method: 'GET' as const, url: '/balance', headers: bearer(token) },
    { method: 'GET' as const, url: '/accounts/balances', headers: bearer(token) },
    { method: 'GET' as const, url: '/openapi.json' },
    { method: 'POST' as const, url: '/__sandbox/clock/freeze' },
  ]) {
    const res = await app.inject(req)
    t.equal(res.headers['x-sandbox-version'], app.sandbox.version, `${req.url} version`)
    t.match(res.headers['x-request-id'], /^[0-9a-f-]{36}$/, `${req.url} request id`)
    seen.add(res.headers['x-request-id'] as string)
  }
  t.equal(seen.size, 5, 'a new id per request')
  const echoed = await app.inject({ method: 'GET', url: '/__sandbox/health', headers: { 'x-request-id': 'ci-job-42.step:7' } })
  t.equal(echoed.headers['x-request-id'], 'ci-job-42.step:7')
  // Health checks are not journaled (they would bury what an integration did): the same id on a journaled call.
  await app.inject({ method: 'GET', url: '/__sandbox/clock', headers: { 'x-request-id': 'ci-job-42.step:7' } })
  const journal = (await app.inject({ method: 'GET', url: '/__sandbox/requests?limit=1' })).json().requests
  t.equal(journal[0].requestId, 'ci-job-42.step:7', 'the journal uses the same id')
  for (const bad of ['has spaces in it', 'x'.repeat(129), 'quote"s']) {
    const res = await app.inject({ method: 'GET', url: '/__sandbox/health', headers: { 'x-request-id': bad } })
    t.match(res.headers['x-request-id'], /^[0-9a-f-]{36}$/, 'an unsafe id is replaced')
  }
})

t.test('admin token: /__sandbox needs it, health stays open, the public API is unaffected', async t => {
  const adminToken = 'admin-secret-123'
  const app = await buildTestApp(t, { adminToken })
  const admin = { 'x-sandbox-admin-token': adminToken }
  const without = await app.inject({ method: 'GET', url: '/__sandbox/accounts' })
  t.equal(without.statusCode, 401)
  t.same(Object.keys(without.json()).sort(), ['code', 'error', 'message', 'statusCode'])
  t.equal(without.json().code, 'ADMIN_TOKEN_REQUIRED')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts', headers: { 'x-sandbox-admin-token': 'wrong-secret' } })).statusCode, 401)
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts', headers: { authorization: 'Bearer wrong' } })).statusCode, 401)
  for (const near of ['admin-secret-124', 'ADMIN-SECRET-123', 'admin-secret-12', 'admin-secret-1234']) {
    t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts', headers: { 'x-sandbox-admin-token': near } })).statusCode, 401, `not ${near}`)
  }
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset' })).statusCode, 401, 'writes too')
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/accounts/1/balance', payload: { set: 0 } })).statusCode, 401)
  const view = await app.inject({ method: 'GET', url: '/__sandbox/accounts/1', headers: admin })
  t.equal(view.statusCode, 200, 'X-Sandbox-Admin-Token works')
  t.equal(view.json().balance.available, 10000, 'refused writes changed nothing')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts', headers: { authorization: `Bearer ${adminToken}` } })).statusCode, 200, 'a Bearer admin token works')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/health' })).statusCode, 200, 'health stays open')
  const token = await tokenFor(app)
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(token) })).statusCode, 200, 'the gateway API needs no admin token')
})
