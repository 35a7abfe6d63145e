import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { buildTestApp, newAccount } from '../helpers/app.js'
import { createCashIn } from '../helpers/payins.js'

/**
 * GET /__sandbox/mercado-pago/payments: an account's Mercado Pago payments for the dashboard and tools,
 * the last made first, a page at a time, from the charges' index of them (followed through a reset and
 * a snapshot import); another account's are not among them.
 */

const PIX = { transaction_amount: 10, payment_method_id: 'pix', payer: { email: 'p@example.com' } }
let keys = 0
const create = async (app: FastifyInstance, token: string, extra: Record<string, unknown> = {}) => {
  const res = await app.inject({ method: 'POST', url: '/v1/payments', headers: { authorization: `Bearer ${token}`, 'x-idempotency-key': `c-${++keys}` }, payload: { ...PIX, ...extra } })
  if (res.statusCode !== 201) throw new Error(res.body)
  return res.json()
}
const list = (app: FastifyInstance, query: string) => app.inject({ method: 'GET', url: `/__sandbox/mercado-pago/payments?${query}` })

t.test('an account\'s payments, the last made first, paged by cursor, each as GET /v1/payments/{id} shows it with its transaction', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app) as any
  const b = await newAccount(app) as any
  const made = []
  for (let i = 0; i < 5; i++) {
    made.push(await create(app, a.mercadoPago.accessToken, { external_reference: `order-${i}` }))
    await create(app, b.mercadoPago.accessToken)
  }
  // A gateway cash-in of the account (a charge too) is no Mercado Pago payment.
  await createCashIn(app, a.token)
  const first = await list(app, `accountId=${a.accountId}&limit=2`)
  t.equal(first.statusCode, 200, first.body)
  t.same(first.json().payments.map((p: any) => p.id), [made[4].id, made[3].id])
  const one = first.json().payments[0]
  const read = (await app.inject({ method: 'GET', url: `/v1/payments/${made[4].id}`, headers: { authorization: `Bearer ${a.mercadoPago.accessToken}` } })).json()
  t.same({ ...one, accountId: undefined, transactionId: undefined }, { ...read, accountId: undefined, transactionId: undefined }, 'as the dialect shows it')
  t.equal(one.accountId, a.accountId)
  t.equal((app.sandbox.store.transaction(one.transactionId)?.data as { txid?: string } | undefined)?.txid, `mpqrinter${made[4].id}`, 'its transaction')
  const second = (await list(app, `accountId=${a.accountId}&limit=2&cursor=${first.json().nextCursor}`)).json()
  t.same(second.payments.map((p: any) => p.id), [made[2].id, made[1].id])
  const last = (await list(app, `accountId=${a.accountId}&limit=2&cursor=${second.nextCursor}`)).json()
  t.same(last.payments.map((p: any) => p.id), [made[0].id])
  t.equal(last.nextCursor, undefined, 'no page after the last')

  // The index follows a snapshot import and a reset.
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  await create(app, a.mercadoPago.accessToken)
  t.equal((await list(app, `accountId=${a.accountId}&limit=100`)).json().payments.length, 6)
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  t.same((await list(app, `accountId=${a.accountId}&limit=100`)).json().payments.map((p: any) => p.id), made.map(p => p.id).reverse())
  await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: {} })
  const fresh = (await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: {} })).json()
  t.same((await list(app, `accountId=${fresh.accountId}`)).json(), { payments: [] })
})

t.test('an unknown account is a 404; a bad query a 400; nothing changes', async t => {
  const app = await buildTestApp(t)
  const missing = await list(app, 'accountId=999')
  t.equal(missing.statusCode, 404, missing.body)
  t.equal(missing.json().code, 'ACCOUNT_NOT_FOUND')
  t.equal((await list(app, '')).statusCode, 400)
  t.equal((await list(app, 'accountId=1&limit=0')).statusCode, 400)
  t.equal((await list(app, 'accountId=1&cursor=-1')).statusCode, 400)
})

t.test('Mercado Pago\'s part of the control plane stands behind its admin token, as the rest of it', async t => {
  const app = await buildTestApp(t, { adminToken: 'the-admin-token' })
  const admin = { 'x-sandbox-admin-token': 'the-admin-token' }
  const a = (await app.inject({ method: 'POST', url: '/__sandbox/accounts', headers: admin, payload: {} })).json()
  for (const [method, url, payload] of [['GET', `/__sandbox/mercado-pago/payments?accountId=${a.accountId}`, undefined], ['PUT', `/__sandbox/accounts/${a.accountId}/mercado-pago/webhook`, { url: 'http://127.0.0.1:9/mp' }]] as const) {
    const refused = await app.inject({ method, url, ...(payload ? { payload } : {}) })
    t.equal(refused.statusCode, 401, refused.body)
    t.equal(refused.json().code, 'ADMIN_TOKEN_REQUIRED')
    const allowed = await app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) })
    t.equal(allowed.statusCode, 200, allowed.body)
  }
})
