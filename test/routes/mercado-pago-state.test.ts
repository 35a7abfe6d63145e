import t from 'tap'
import { createHmac } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../server/app.js'
import { advance, buildTestApp, T0 } from '../helpers/app.js'

/** Mercado Pago's credentials and payments through a restart with --data and a snapshot import; its signature on each attempt. */

const PIX = { transaction_amount: 10, payment_method_id: 'pix', payer: { email: 'p@example.com' } }
const create = (app: FastifyInstance, token: string, key: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/v1/payments', headers: { authorization: `Bearer ${token}`, 'x-idempotency-key': key, ...headers }, payload: PIX })

t.test('credentials and payments survive a restart with --data; the token still authenticates (the index rebuilt on load)', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-mp-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const config = { data: join(dir, 'state.json'), seed: 'mp-seed', clock: 'frozen' as const, clockStart: T0 }
  const first = await buildApp({ config })
  const given = { accessToken: 'TEST-1111222233334444-031012-0123456789abcdef0123456789abcdef-987654321', userId: 987654321, webhookSecret: 'restart-secret', publicKey: 'TEST-pk-given' }
  const created = (await first.inject({ method: 'POST', url: '/__sandbox/accounts', payload: { mercadoPago: given } })).json()
  const payment = (await create(first, given.accessToken, 'k1')).json()
  await first.close()
  const second = await buildApp({ config })
  t.teardown(() => second.close())
  t.same((await second.inject({ method: 'GET', url: `/__sandbox/accounts/${created.accountId}` })).json().mercadoPago, { ...given, webhookUrl: null })
  const got = await second.inject({ method: 'GET', url: `/v1/payments/${payment.id}`, headers: { authorization: `Bearer ${given.accessToken}` } })
  t.equal(got.statusCode, 200, got.body)
  t.equal(got.json().status, 'pending')
  const replay = await create(second, given.accessToken, 'k1')
  t.equal(replay.json().id, payment.id, 'the idempotency key is kept with the payment')
})

t.test('an idempotency key\'s 24 h run on through a restart and a snapshot import: the key is then freed', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-mp-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const config = { data: join(dir, 'state.json'), seed: 'mp-seed', clock: 'frozen' as const, clockStart: T0 }
  const first = await buildApp({ config })
  const acc = (await first.inject({ method: 'POST', url: '/__sandbox/accounts', payload: {} })).json()
  const token: string = acc.mercadoPago.accessToken
  const payment = (await create(first, token, 'k-day')).json()
  await advance(first, 12 * 60 * 60_000)
  const snapshot = (await first.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  await first.close()
  const second = await buildApp({ config })
  t.teardown(() => second.close())
  t.equal((await create(second, token, 'k-day')).json().id, payment.id, '12 h on, after a restart: the same payment')
  await advance(second, 12 * 60 * 60_000)
  const fresh = (await create(second, token, 'k-day')).json()
  t.not(fresh.id, payment.id, '24 h after its first use: a new payment')
  // The snapshot taken at 12 h, imported when the clock says 24 h have passed: the key is freed on the first tick.
  const put = await second.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })
  t.equal(put.statusCode, 200, put.body)
  await advance(second, 12 * 60 * 60_000)
  t.equal(second.sandbox.store.transactionByRef(`mp-idempotency:${acc.accountId}:k-day`), undefined, 'gone from the index')
  t.notOk(Object.values(second.sandbox.store.data.transactions).some(tx => tx.data.refs?.includes(`mp-idempotency:${acc.accountId}:k-day`)), 'and from every record')
})

t.test('a snapshot import brings the credentials back; a token of an account the import removed no longer authenticates', async t => {
  const app = await buildTestApp(t)
  const kept = (await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: {} })).json()
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  const gone = (await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: {} })).json()
  t.equal((await create(app, gone.mercadoPago.accessToken, 'g')).statusCode, 201)
  const put = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })
  t.equal(put.statusCode, 200, put.body)
  t.equal((await create(app, kept.mercadoPago.accessToken, 'a')).statusCode, 201)
  const refused = await create(app, gone.mercadoPago.accessToken, 'b')
  t.equal(refused.statusCode, 401)
  t.match(refused.json(), { message: 'invalid access token' })
})

t.test('WEBHOOK_BAD_SIGNATURE: the attempt carries an x-signature made with another secret; the good one verifies', async t => {
  const app = await buildTestApp(t)
  const acc = (await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: {} })).json()
  // A port nothing listens on: each attempt is made (and its headers logged), and fails.
  const body = { ...PIX, notification_url: 'http://127.0.0.1:9/hook' }
  const post = (key: string, headers: Record<string, string> = {}) => app.inject({ method: 'POST', url: '/v1/payments', headers: { authorization: `Bearer ${acc.mercadoPago.accessToken}`, 'x-idempotency-key': key, ...headers }, payload: body })
  const good = (await post('good')).json()
  const bad = (await post('bad', { 'x-sandbox-scenario': 'WEBHOOK_BAD_SIGNATURE' })).json()
  const deliveryOf = (id: number) => Object.values(app.sandbox.store.data.deliveries).find(d => d.url?.includes(`data.id=${id}&`))!
  for (let i = 0; i < 100 && (deliveryOf(good.id).attempts.length === 0 || deliveryOf(bad.id).attempts.length === 0); i++) await new Promise(resolve => setTimeout(resolve, 20))
  const valid = (id: number): boolean => {
    const d = deliveryOf(id)
    const headers = d.attempts[0].requestHeaders!
    const [ts, v1] = headers['x-signature'].split(',').map(part => part.split('=')[1])
    t.equal(new URL(d.url!).searchParams.get('data.id'), String(id))
    return createHmac('sha256', acc.mercadoPago.webhookSecret).update(`id:${id};request-id:${headers['x-request-id']};ts:${ts};`).digest('hex') === v1
  }
  t.ok(valid(good.id), 'the signature verifies with the account\'s secret')
  t.notOk(valid(bad.id), 'the forged one does not')
})

t.test('a snapshot where two accounts share an access token is refused, and changes nothing', async t => {
  const app = await buildTestApp(t)
  const a = (await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: {} })).json()
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  snapshot.accounts[String(a.accountId)].mercadoPago.accessToken = snapshot.accounts['1'].mercadoPago.accessToken
  const res = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })
  t.equal(res.statusCode, 400)
  t.match(res.json().details.problems, [`accounts/${a.accountId}: mercadoPago.accessToken is also account 1's`])
  t.equal((await create(app, a.mercadoPago.accessToken, 'still')).statusCode, 201, 'the account keeps its own token')
})
