import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { advance, bearer, buildTestApp, newAccount, tokenFor } from '../helpers/app.js'
import { cashOut, cashOutBody, JOAO } from '../helpers/payouts.js'
import { receiveIncoming } from '../helpers/payins.js'
import { buildBrCode } from '../../server/domain/brcode.js'
import { checks } from '../../server/report/checks.js'
import { startReceiver } from '../helpers/receiver.js'

/**
 * GET /__sandbox/report and POST /__sandbox/report/probe through app.inject: what the report records
 * of each request (the facts its checks grade), its shape, and its errors. The checks themselves are
 * graded in test/unit/report-checks.test.ts; whole integrations over HTTP in test/flows/report.test.ts.
 */
const report = async (app: FastifyInstance, accountId: number) => {
  const res = await app.inject({ method: 'GET', url: `/__sandbox/report?accountId=${accountId}` })
  if (res.statusCode !== 200) throw new Error(`report failed: ${res.statusCode} ${res.body}`)
  return res.json()
}
const statusOf = (r: { checks: Array<{ id: string, status: string }> }, id: string) => r.checks.find(c => c.id === id)?.status

t.test('a fresh account: every check of the catalogue, each not exercised but requests-valid, naming its section of docs/gateway.md', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const r = await report(app, acc.accountId)
  t.equal(r.accountId, acc.accountId)
  t.equal(r.generatedAt, '2026-03-10T15:00:00.000Z', 'sandbox time')
  t.equal(r.verdict, 'incomplete')
  t.same(r.counts, { passed: 1, failed: 0, not_exercised: checks.length - 1 })
  t.same(r.checks.map((c: { id: string }) => c.id), checks.map(c => c.id))
  for (const c of r.checks) {
    t.equal(c.status, c.id === 'requests-valid' ? 'passed' : 'not_exercised', `${c.id}: ${c.summary}`)
    t.match(c.section, /^gateway \d/, `${c.id} cites a section`)
    t.match(c.docs, /^docs\/gateway\.md#\d/, `${c.id} links to it`)
    t.same(c.evidence, [])
  }
  t.match(r.read, { requests: 1, transactions: 0 }, 'the token request of newAccount')
})

t.test('an unknown account is a 404; a missing or bad accountId a 400', async t => {
  const app = await buildTestApp(t)
  const unknown = await app.inject({ method: 'GET', url: '/__sandbox/report?accountId=999' })
  t.equal(unknown.statusCode, 404)
  t.equal(unknown.json().code, 'ACCOUNT_NOT_FOUND')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/report' })).statusCode, 400)
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/report?accountId=x' })).statusCode, 400)
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/report/probe', payload: { accountId: 999 } })).statusCode, 404)
})

t.test('the report reads error codes the simple shape does not show, an expired token\'s account, and control-plane queries', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 100 })
  // A devolução beyond the original: the simple shape has no code, the report still knows why.
  const pix = await receiveIncoming(app, acc.accountId, 10)
  const over = await app.inject({ method: 'PUT', url: `/pix/${pix.endToEndId}/devolucao/d1`, headers: bearer(acc.token), payload: { valor: '10.01' } })
  t.equal(over.statusCode, 400)
  t.notOk('code' in over.json(), 'the simple shape is unchanged')
  let r = await report(app, acc.accountId)
  t.equal(statusOf(r, 'refunds-within-amount'), 'failed')
  t.same(r.checks.find((c: { id: string }) => c.id === 'refunds-within-amount').evidence[0].requestIds, [over.headers['x-request-id']])

  // A token past its 1800 s: the 401 carries no account, the report finds it from the token.
  await advance(app, 1_800_000)
  const expired = await app.inject({ method: 'GET', url: '/balance', headers: bearer(acc.token) })
  t.equal(expired.statusCode, 401)
  r = await report(app, acc.accountId)
  t.equal(statusOf(r, 'token-renewed'), 'failed', 'no new token after the 401 (yet)')
  await tokenFor(app, acc)
  r = await report(app, acc.accountId)
  t.equal(statusOf(r, 'token-renewed'), 'passed', 'a new token followed the 401')
  // A forged token is not an expired one: it names no account.
  const forged = await app.inject({ method: 'GET', url: '/balance', headers: bearer(acc.token.slice(0, -2) + 'xx') })
  t.equal(forged.statusCode, 401)
  t.equal((await report(app, acc.accountId)).read.requests, r.read.requests, 'nothing recorded for the account')

  // A 500 on a pay-out, then a control-plane query of the transaction: resolved.
  const token = await tokenFor(app, acc)
  const qrCode = buildBrCode({ key: JOAO.key, amountCents: 500, merchantName: 'JOAO SOUZA', merchantCity: 'RECIFE' })
  const lost = await app.inject({ method: 'POST', url: '/api/pix/cash-out-qrcode', headers: { ...bearer(token), 'x-sandbox-scenario': 'INTERNAL_ERROR' }, payload: { value: 5, qrCode, externalId: 'qr-500' } })
  t.equal(lost.statusCode, 500)
  r = await report(app, acc.accountId)
  t.equal(statusOf(r, 'indeterminate-payout-resolved'), 'failed', 'left unknown so far')
  const [tx] = (await app.inject({ method: 'GET', url: `/__sandbox/transactions?accountId=${acc.accountId}&kind=CASH_OUT_QRCODE` })).json().transactions
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/transactions/${tx.id}` })).statusCode, 200)
  r = await report(app, acc.accountId)
  t.equal(statusOf(r, 'indeterminate-payout-resolved'), 'passed')
})

t.test('a tool\'s token (POST /__sandbox/accounts/:id/token, the CLI\'s) works and is not graded: not a token fetched early, not an expired one left unrenewed', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  for (let i = 0; i < 2; i++) t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(acc.token) })).statusCode, 200)
  const issued = await app.inject({ method: 'POST', url: `/__sandbox/accounts/${acc.accountId}/token` })
  t.equal(issued.statusCode, 201)
  t.match(issued.json(), { access_token: String, token_type: 'Bearer', expires_in: 1800 })
  const tool = issued.json().access_token
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(tool) })).statusCode, 200, 'it is the account\'s')
  t.equal(statusOf(await report(app, acc.accountId), 'token-reused'), 'passed', 'the integration\'s one token is all the check counts')
  // Expired, its 401 is the developer's to renew, not the integration's.
  await advance(app, 1_800_000)
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(tool) })).statusCode, 401)
  t.equal(statusOf(await report(app, acc.accountId), 'token-renewed'), 'not_exercised')
  const missing = await app.inject({ method: 'POST', url: '/__sandbox/accounts/999/token' })
  t.equal(missing.statusCode, 404)
})

t.test('a refused cash-out retried unchanged fails refusal-not-retried; the scenario names are recorded', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 100 })
  const body = cashOutBody({ value: 10 })
  const first = await cashOut(app, acc.token, body, 'INSUFFICIENT_FUNDS')
  t.equal(first.json().errorCode, 'PIX_INSUFFICIENT_BALANCE')
  t.equal(statusOf(await report(app, acc.accountId), 'refusal-not-retried'), 'passed', 'refused once, not retried')
  const again = await cashOut(app, acc.token, { ...body, externalId: 'other' }, 'INSUFFICIENT_FUNDS')
  const r = await report(app, acc.accountId)
  const check = r.checks.find((c: { id: string }) => c.id === 'refusal-not-retried')
  t.equal(check.status, 'failed')
  t.same(check.evidence[0].requestIds, [first.headers['x-request-id'], again.headers['x-request-id']])
  t.equal(r.verdict, 'failed')
})

t.test('the report reads the request journal: clearing an account\'s journal starts its report over; another account\'s report is its own', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 100 })
  const b = await newAccount(app, { balance: 100 })
  await cashOut(app, a.token, cashOutBody({ value: 10 }), 'INSUFFICIENT_FUNDS')
  t.equal(statusOf(await report(app, a.accountId), 'refusal-not-retried'), 'passed')
  t.equal(statusOf(await report(app, b.accountId), 'refusal-not-retried'), 'not_exercised')
  // Control-plane calls in the account's journal (its creation, this report) are not graded.
  t.equal((await report(app, a.accountId)).read.requests, 2, 'the token request and the cash-out')
  t.equal((await app.inject({ method: 'DELETE', url: `/__sandbox/requests?accountId=${a.accountId}` })).statusCode, 200)
  t.equal((await report(app, a.accountId)).read.requests, 0)
  t.equal((await report(app, b.accountId)).read.requests, 1, 'b\'s token request stays')
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset' })).statusCode, 200)
  const fresh = await newAccount(app)
  t.equal((await report(app, fresh.accountId)).read.requests, 1, 'a full reset forgets every account: only the new token request')
})

t.test('the probe: 409 without a receiver; with one, a badly signed sample sent once and graded', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const none = await app.inject({ method: 'POST', url: '/__sandbox/report/probe', payload: { accountId: acc.accountId } })
  t.equal(none.statusCode, 409)
  t.equal(none.json().code, 'NO_RECEIVER')
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  receiver.script([401])
  await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: acc.accountId, eventType: 'cash_in', url: receiver.url } })
  const wrongType = await app.inject({ method: 'POST', url: '/__sandbox/report/probe', payload: { accountId: acc.accountId, eventType: 'cash_out' } })
  t.equal(wrongType.statusCode, 409, 'no receiver for that event type')
  const probe = await app.inject({ method: 'POST', url: '/__sandbox/report/probe', payload: { accountId: acc.accountId } })
  t.equal(probe.statusCode, 202)
  t.match(probe.json().deliveries, [{ eventType: 'cash_in', scenarios: ['WEBHOOK_BAD_SIGNATURE'] }])
  const got = await receiver.next()
  t.match(got.headers['x-sandbox-signature'], /^v1=[0-9a-f]{64}$/, 'well formed, but made with another secret')
  await app.sandbox.webhooks.idle()
  await advance(app, 3_600_000)
  await app.sandbox.webhooks.idle()
  t.equal(receiver.requests.length, 1, 'a refused probe is not retried')
  const r = await report(app, acc.accountId)
  t.equal(statusOf(r, 'webhook-signature-verified'), 'passed')
  t.equal(statusOf(r, 'webhooks-acknowledged'), 'not_exercised', 'the probe is not a webhook the receiver owes a 2xx')
})
