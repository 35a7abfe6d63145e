import t from 'tap'
import { bearer, buildTestApp, certHeader, fixtureAccount, newAccount, T0, tokenFor } from '../helpers/app.js'
import { cashOut, cashOutBody } from '../helpers/payouts.js'

/**
 * The request journal through the API (docs/testing.md, See what your integration did): every field of an entry for a cash-out, a token
 * request (credentials masked), a 400 and a scenario; caps per account; count and verify; clearing
 * one account; `since`; the link between a transaction and its requests.
 */
const list = async (app: Awaited<ReturnType<typeof buildTestApp>>, query = ''): Promise<any[]> => {
  const res = await app.inject({ method: 'GET', url: `/__sandbox/requests${query}` })
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`)
  return res.json().requests
}

t.test('a cash-out: every field of its entry, and the link to and from its transaction', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 100 })
  const body = cashOutBody({ value: 12.5, externalId: 'ext-journal-1' })
  const res = await app.inject({ method: 'POST', url: '/api/pix/cash-out?trace=yes', headers: { ...bearer(acc.token), 'x-request-id': 'my-req-1', 'x-idempotency-key': 'idem-1' }, payload: body })
  t.equal(res.statusCode, 201)
  const txId = res.json().transactionId ?? res.json().data?.id ?? res.json().id
  t.type(txId, 'string')

  const [e] = await list(app, `?accountId=${acc.accountId}&limit=1`)
  t.match(e, {
    requestId: 'my-req-1',
    at: T0,
    method: 'POST',
    path: '/api/pix/cash-out',
    query: { trace: 'yes' },
    route: '/api/pix/cash-out',
    status: 201,
    accountId: acc.accountId,
    idempotencyKey: 'idem-1',
    externalId: 'ext-journal-1',
    scenarios: [],
    errorCode: null,
    transactionId: txId,
  })
  t.type(e.id, 'number')
  t.ok(Math.abs(Date.parse(e.wallTime) - Date.now()) < 60_000, 'wall time next to sandbox time (the clock is frozen at T0)')
  t.type(e.durationMs, 'number')
  t.type(e.tokenId, 'string', 'the id of the token used')
  t.same(e.request.body, body, 'the request body as sent')
  t.equal(e.request.headers.authorization, '[masked]')
  t.equal(e.request.headers['x-idempotency-key'], 'idem-1')
  t.same(e.response.body, res.json(), 'the answer as sent')
  t.equal(e.response.headers['x-request-id'], 'my-req-1')
  t.match(e.response.headers['content-type'], /application\/json/)
  t.notOk(JSON.stringify(e).includes(acc.token), 'the bearer token appears nowhere')

  const one = await app.inject({ method: 'GET', url: `/__sandbox/requests/${e.id}` })
  t.same(one.json(), e, 'GET /__sandbox/requests/:id answers the same entry')

  // A read of the transaction links to it too; the list by transaction gives both, newest first.
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/transactions/${txId}` })).statusCode, 200)
  const linked = await list(app, `?transactionId=${txId}`)
  t.same(linked.map(x => `${x.method} ${x.route}`), ['GET /__sandbox/transactions/:id', 'POST /api/pix/cash-out'])
  t.equal(linked[0].accountId, acc.accountId, 'a control-plane read of a transaction belongs to its account')
  t.same((await app.inject({ method: 'GET', url: '/__sandbox/requests/999999' })).json().code, 'REQUEST_NOT_FOUND')
})

t.test('a token request: the account found by clientId, the issued token\'s id, every credential masked', async t => {
  const app = await buildTestApp(t)
  const res = await app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': certHeader(fixtureAccount.certificate) }, payload: { clientId: fixtureAccount.clientId, clientSecret: fixtureAccount.clientSecret } })
  t.equal(res.statusCode, 201)
  const token = res.json().access_token
  const [e] = await list(app, '?path=/api/auth/token')
  t.equal(e.accountId, 1)
  t.type(e.tokenId, 'string')
  t.equal(e.request.body.clientId, fixtureAccount.clientId)
  t.equal(e.request.body.clientSecret, '[masked]')
  t.equal(e.request.headers['x-ssl-client-cert'], '[masked]')
  t.equal(e.response.body.access_token, '[masked]')
  t.equal(e.response.body.token_type ?? 'Bearer', 'Bearer')
  // The same token in a query string and an admin token header: masked wherever they turn up.
  await app.inject({ method: 'GET', url: `/balance?token=${token}`, headers: { ...bearer(token), 'x-sandbox-admin-token': 'not-configured-admin' } })
  const [read] = await list(app, '?path=/balance')
  t.equal(read.tokenId, e.tokenId, 'the balance read used the token this request issued')
  t.equal(read.query.token, '[masked]')
  t.equal(read.request.headers['x-sandbox-admin-token'], '[masked]')
  const all = JSON.stringify(await list(app))
  for (const secret of [fixtureAccount.clientSecret, token, 'BEGIN CERTIFICATE', 'not-configured-admin']) t.notOk(all.includes(secret), `no ${secret.slice(0, 10)}… anywhere in the journal`)
})

t.test('a 400 and a scenario: the error code, the scenarios applied, and the bodies', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 100 })
  const bad = await cashOut(app, acc.token, { value: 'ten', details: {} })
  t.equal(bad.statusCode, 400)
  const failed = await cashOut(app, acc.token, cashOutBody({ value: 10 }), 'INSUFFICIENT_FUNDS')
  t.equal(failed.statusCode, 400)
  const [scenario, invalid] = await list(app, `?accountId=${acc.accountId}&method=POST&limit=2`)
  t.match(invalid, { status: 400, errorCode: 'HTTP_ERROR', scenarios: [], transactionId: null, request: { body: { value: 'ten', details: {} } } })
  t.same(invalid.response.body, bad.json())
  t.match(scenario, { status: 400, errorCode: 'PIX_INSUFFICIENT_BALANCE', scenarios: ['INSUFFICIENT_FUNDS'], transactionId: null })
  t.equal(scenario.request.headers['x-sandbox-scenario'], 'INSUFFICIENT_FUNDS')
  t.same((await list(app, '?scenario=INSUFFICIENT_FUNDS')).map(x => x.id), [scenario.id])
  t.same((await list(app, '?errorCode=PIX_INSUFFICIENT_BALANCE&status=4xx')).map(x => x.id), [scenario.id])
  // The simple family carries no code in its body; the journal has it all the same.
  const token = await app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': certHeader(fixtureAccount.certificate) }, payload: { clientId: fixtureAccount.clientId, clientSecret: 'wrong-secret-123' } })
  t.equal(token.statusCode, 401)
  const [refused] = await list(app, '?path=/api/auth/*&status=401')
  t.type(refused.errorCode, 'string')
  t.equal(refused.request.body.clientSecret, '[masked]')
})

t.test('caps per account: a busy account pushes out only its own oldest requests', async t => {
  const app = await buildTestApp(t, { journalSize: 3 })
  const quiet = await newAccount(app)
  const busy = await newAccount(app)
  await app.inject({ method: 'GET', url: '/balance', headers: bearer(quiet.token) })
  for (let i = 0; i < 6; i++) await app.inject({ method: 'GET', url: '/balance', headers: bearer(busy.token) })
  t.equal((await list(app, `?accountId=${busy.accountId}`)).length, 3)
  // The quiet account keeps its creation, token and balance read.
  t.same((await list(app, `?accountId=${quiet.accountId}`)).map(x => x.path), ['/balance', '/api/auth/token', '/__sandbox/accounts'])
})

t.test('count and verify: a match, a miss with its near misses, bad matchers', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 100 })
  await cashOut(app, acc.token, cashOutBody({ value: 10, externalId: 'a-1' }))
  await cashOut(app, acc.token, cashOutBody({ value: 20, externalId: 'a-2' }))
  const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, payload: payload as object })

  t.same((await post('/__sandbox/requests/count', { accountId: acc.accountId, method: 'POST', path: '/api/pix/*' })).json(), { count: 2 })
  t.same((await post('/__sandbox/requests/count', { bodyContains: { externalId: 'a-2', 'details.keyType': 'EMAIL' } })).json(), { count: 1 })
  t.same((await post('/__sandbox/requests/count', {})).json().count, 4, 'the account creation, the token and two cash-outs (not the counts themselves)')

  const ok = await post('/__sandbox/requests/verify', { path: '/api/pix/cash-out', status: 201, times: 2 })
  t.equal(ok.statusCode, 200)
  t.same(ok.json(), { count: 2, matched: true })

  const miss = await post('/__sandbox/requests/verify', { accountId: acc.accountId, path: '/api/pix/cash-out', bodyContains: { value: 30 }, times: 1 })
  t.equal(miss.statusCode, 409)
  const err = miss.json()
  t.equal(err.code, 'VERIFICATION_FAILED')
  t.match(err.message, /Expected exactly 1 matching request\(s\), found 0/)
  t.equal(err.details.count, 0)
  t.same(err.details.nearMisses.slice(0, 2).map((m: any) => m.differences), [
    [{ field: 'body.value', expected: 30, actual: 20 }],
    [{ field: 'body.value', expected: 30, actual: 10 }],
  ], 'the two cash-outs, one field apart, newest first')
  t.match(err.details.nearMisses[0], { method: 'POST', path: '/api/pix/cash-out', status: 201, accountId: acc.accountId })

  t.equal((await post('/__sandbox/requests/verify', { path: '/nowhere' })).statusCode, 409, 'no count given: at least one')
  t.equal((await post('/__sandbox/requests/verify', { path: '/api/pix/cash-out', atMost: 1 })).statusCode, 409)
  t.equal((await post('/__sandbox/requests/count', { status: 'abc' })).statusCode, 400)
  t.equal((await post('/__sandbox/requests/count', { nope: 1 })).statusCode, 200, 'unknown fields are ignored, as everywhere in the control plane')
})

t.test('clearing one account leaves another\'s; clearing all empties it', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app)
  const b = await newAccount(app)
  const cleared = await app.inject({ method: 'DELETE', url: `/__sandbox/requests?accountId=${a.accountId}` })
  t.equal(cleared.statusCode, 200)
  t.same(cleared.json(), { cleared: 2 }, 'its creation and its token')
  t.same(await list(app, `?accountId=${a.accountId}`), [])
  t.equal((await list(app, `?accountId=${b.accountId}`)).length, 2)
  t.equal((await app.inject({ method: 'DELETE', url: '/__sandbox/requests' })).json().cleared, 2, 'b: its creation and its token')
  t.same(await list(app), [], 'the journal\'s own routes are not journaled')
})

t.test('since: strictly after an id or an instant, oldest first; the journal\'s own readers are not kept', async t => {
  const app = await buildTestApp(t)
  const [first] = await list(app, '?limit=1')
  t.equal(first, undefined, 'a new sandbox has an empty journal')
  await app.inject({ method: 'GET', url: '/__sandbox/clock' })
  const [clock] = await list(app)
  // The wall time counts whole milliseconds: the next requests come after it, not in its millisecond.
  while (Date.now() <= Date.parse(clock.wallTime)) await new Promise(resolve => setTimeout(resolve, 1))
  for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url: `/nope/${i}` })
  // Reads of the journal, health checks and the dashboard's refreshes: not kept.
  await app.inject({ method: 'GET', url: '/__sandbox/health' })
  await app.inject({ method: 'GET', url: '/__sandbox/accounts', headers: { 'x-sandbox-client': 'dashboard' } })
  await app.inject({ method: 'GET', url: '/dashboard' })
  const after = await list(app, `?since=${clock.id}`)
  t.same(after.map(x => x.path), ['/nope/0', '/nope/1', '/nope/2'])
  t.same((await list(app, `?since=${clock.id}&limit=1`)).map(x => x.path), ['/nope/0'])
  t.same(await list(app, `?since=${after[2].id}`), [], 'nothing after the newest')
  t.same((await list(app, `?since=${encodeURIComponent(clock.wallTime)}`)).map(x => x.path).slice(-1), ['/nope/2'], 'an instant compares with the wall time')
  t.equal((await list(app, `?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).length, 0)
  const bad = await app.inject({ method: 'GET', url: '/__sandbox/requests?since=yesterday' })
  t.equal(bad.statusCode, 400)
  t.match(bad.json().message, /since must be an entry id or an ISO 8601 instant/)
  // A dashboard action (not a refresh) is kept.
  await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', headers: { 'x-sandbox-client': 'dashboard' }, payload: { ms: 1 } })
  t.equal((await list(app, '?path=/__sandbox/clock/advance')).length, 1)
})

t.test('the CLI\'s reads are not kept, as the dashboard\'s are not; the marker hides no gateway request', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  await app.inject({ method: 'DELETE', url: '/__sandbox/requests' })
  // tail polls the delivery log with the CLI's marker.
  for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries?accountId=1&limit=200', headers: { 'x-sandbox-client': 'cli' } })
  t.same(await list(app), [], 'the CLI\'s polling is not journaled')
  // An integration that marks its own gateway requests is still journaled, under its account.
  for (const client of ['cli', 'dashboard']) await app.inject({ method: 'GET', url: '/balance', headers: { ...bearer(token), 'x-sandbox-client': client } })
  t.match(await list(app), [{ path: '/balance', accountId: 1 }, { path: '/balance', accountId: 1 }])
  await app.inject({ method: 'POST', url: '/__sandbox/accounts/1/token', headers: { 'x-sandbox-client': 'cli' } })
  t.equal((await list(app, '?path=/__sandbox/accounts/1/token')).length, 1, 'a CLI action is kept')
})

t.test('--journal-bodies false keeps every field but the bodies', async t => {
  const app = await buildTestApp(t, { journalBodies: false })
  const acc = await newAccount(app, { balance: 100 })
  await cashOut(app, acc.token, cashOutBody({ externalId: 'no-bodies' }))
  const [e] = await list(app, '?path=/api/pix/cash-out')
  t.match(e, { status: 201, externalId: 'no-bodies', request: { body: null }, response: { body: null } })
  t.equal(e.transactionId, null, 'without the answer no transaction is named')
  t.equal(e.request.headers.authorization, '[masked]')
})

t.test('an account id that is not a safe positive integer never breaks the listing', async t => {
  const app = await buildTestApp(t)
  const named = [1.5, 0, -3, 1e300, 2 ** 53, 'x', null, { id: 1 }]
  for (const accountId of named) {
    await app.inject({ method: 'POST', url: '/api/auth/token', payload: { clientId: 'x', clientSecret: '12345678', accountId } })
  }
  for (const query of ['1.5', '-1', '1e300', '99999999999999999999']) {
    await app.inject({ method: 'GET', url: `/__sandbox/transactions?accountId=${query}` })
    await app.inject({ method: 'GET', url: `/__sandbox/accounts/${query}` })
  }
  const res = await app.inject({ method: 'GET', url: '/__sandbox/requests?limit=1000' })
  t.equal(res.statusCode, 200, 'the whole journal listed')
  const entries = res.json().requests as Array<{ id: number, accountId: number | null }>
  t.equal(entries.length, named.length + 8)
  t.ok(entries.every(e => e.accountId === null), 'each of no account')
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/requests/${entries[0].id}` })).statusCode, 200)
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/requests/verify', payload: { path: '/nowhere' } })).statusCode, 409, 'the near misses listed too')
})

t.test('a request naming an account that does not exist is of no account; one that exists keeps it', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  await app.inject({ method: 'POST', url: '/api/auth/token', payload: { clientId: 'n', clientSecret: '12345678', accountId: 1_000_001 } })
  await app.inject({ method: 'GET', url: '/__sandbox/transactions?accountId=1000002' })
  await app.inject({ method: 'GET', url: '/__sandbox/accounts/1000003' })
  const strangers = await list(app, '?limit=3')
  t.same(strangers.map(e => e.accountId), [null, null, null])
  t.same((await list(app, '?accountId=1000001')), [], 'no account of that id, so nothing under it')

  // The body names an account that does not exist, the credentials one that does: the one that exists.
  await app.inject({ method: 'POST', url: '/api/auth/token', payload: { clientId: acc.clientId, clientSecret: 'wrong-secret-123', accountId: 1_000_004 } })
  await app.inject({ method: 'GET', url: `/__sandbox/transactions?accountId=${acc.accountId}` })
  const [read, token] = await list(app, '?limit=2')
  t.equal(token.accountId, acc.accountId, 'a token request belongs to its clientId\'s account')
  t.equal(read.accountId, acc.accountId, 'a query naming an existing account')
})

t.test('bodies over 64 KiB are kept as a note of their size', async t => {
  const app = await buildTestApp(t)
  const pad = 'x'.repeat(65 * 1024)
  await app.inject({ method: 'POST', url: '/api/auth/token', payload: { clientId: 'n', clientSecret: '12345678', pad } })
  const [e] = await list(app, '?limit=1')
  t.match(e.request.body, /^\[a body of \d+ bytes, not kept\]$/)
  t.notOk(JSON.stringify(e).includes(pad.slice(0, 1000)))
})
