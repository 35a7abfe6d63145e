import t, { type Test } from 'tap'
import { createHmac } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { bearer, buildTestApp, newAccount, T0 } from '../helpers/app.js'
import { aTxid } from '../helpers/payins.js'
import { apiPixBacen, oauthToken } from '../helpers/api-pix.js'
import { startReceiver, type Receiver } from '../helpers/receiver.js'

/**
 * API Pix's webhook per key against a real receiver on 127.0.0.1 (docs/api-pix.md, webhook): a PIX
 * paid to the key arrives at `{webhookUrl}/pix` as `{"pix": [...]}` (BACEN's WebhookPixBody), signed
 * and retried as the gateway's events, in the delivery log with the transaction the journal names;
 * a devolução reaching DEVOLVIDO posts the PIX again with it; the delivery faults bend it. The clock
 * is frozen at T0: a retry happens only when the test advances it.
 */

const DOCUMENT = '11222333000181'
const KEY = 'loja@example.com'
const callbackBody = apiPixBacen.requestBody('WebhookPixBody')

async function receiver (t: Test): Promise<Receiver> {
  const r = await startReceiver()
  t.teardown(() => r.close())
  return r
}

/** An account holding KEY, a webhook on it to `r`, and a paid cob of `valor` on the key. */
async function paidOnKey (t: Test, app: FastifyInstance, r: Receiver, headers: Record<string, string> = {}) {
  const acc = await newAccount(app, { document: DOCUMENT, balance: 0 })
  const { ispb } = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  await app.inject({ method: 'PUT', url: `/__sandbox/directory/${KEY}`, payload: { name: 'LOJA', document: DOCUMENT, ispb, bankName: 'SANDBOX' } })
  const token = await oauthToken(app, acc)
  const call = (method: 'GET' | 'PUT', url: string, payload?: object) => app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) })
  t.equal((await call('PUT', `/v2/webhook/${KEY}`, { webhookUrl: r.url })).statusCode, 200)
  const cob = (await call('PUT', `/v2/cob/${aTxid(1)}`, { calendario: {}, valor: { original: '25.00' }, chave: KEY })).json()
  const paid = await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', headers, payload: { pixCode: cob.pixCopiaECola } })
  t.equal(paid.statusCode, 201, paid.body)
  return { acc, call, paid: paid.json() as { transactionId: string, endToEndId: string } }
}

const advance = (app: FastifyInstance, ms: number) => app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms } })
const pixDeliveries = async (app: FastifyInstance, accountId: number) =>
  (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${accountId}&eventType=pix` })).json().deliveries as any[]

t.test('a PIX paid to the key arrives at {webhookUrl}/pix, signed, as BACEN\'s WebhookPixBody; the journal and the log agree', async t => {
  const app = await buildTestApp(t)
  const r = await receiver(t)
  const { acc, call, paid } = await paidOnKey(t, app, r)
  const got = await r.next()
  t.equal(got.method, 'POST')
  t.equal(got.path, '/hook/pix')
  t.equal(got.headers['content-type'], 'application/json')
  t.equal(got.headers['x-sandbox-event-type'], 'pix')
  t.ok(callbackBody(got.json()), `WebhookPixBody: ${JSON.stringify(callbackBody.errors ?? [])}`)
  t.notOk(callbackBody({ pix: [{ endToEndId: paid.endToEndId, valor: 25 }] }), 'the schema is no blank check')
  const shown = (await call('GET', `/v2/pix/${paid.endToEndId}`)).json()
  t.same(got.json(), { pix: [shown] })
  t.match(shown, { endToEndId: paid.endToEndId, txid: aTxid(1), valor: '25.00', chave: KEY, horario: T0, devolucoes: [] })
  const expected = 'v1=' + createHmac('sha256', 'pix-sandbox-webhook-secret').update(`${got.headers['x-sandbox-timestamp']}.${got.body}`).digest('hex')
  t.equal(got.headers['x-sandbox-signature'], expected, 'the gateway\'s signature recipe')

  await app.sandbox.webhooks.idle()
  const [delivery] = await pixDeliveries(app, acc.accountId)
  t.match(delivery, { id: got.headers['x-sandbox-delivery-id'], status: 'delivered', url: `${r.url}/pix`, transactionId: paid.transactionId, attempts: [{ statusCode: 200 }] })
  const journal = (await app.inject({ method: 'GET', url: `/__sandbox/requests?transactionId=${paid.transactionId}` })).json().requests
  t.ok(journal.some((e: { path: string }) => e.path === '/__sandbox/pix/pay'), 'the payment\'s request names the transaction the delivery carries')
})

t.test('a failed attempt is retried on the sandbox clock, the same delivery id', async t => {
  const app = await buildTestApp(t, { webhookBackoffMs: 1000 })
  const r = await receiver(t)
  r.script([500])
  const { acc } = await paidOnKey(t, app, r)
  const first = await r.next()
  await app.sandbox.webhooks.idle()
  t.match((await pixDeliveries(app, acc.accountId))[0], { status: 'pending', attempts: [{ statusCode: 500 }] })
  await advance(app, 1000)
  const second = await r.next()
  t.equal(second.headers['x-sandbox-delivery-id'], first.headers['x-sandbox-delivery-id'])
  t.equal(second.body, first.body)
  await app.sandbox.webhooks.idle()
  t.match((await pixDeliveries(app, acc.accountId))[0], { status: 'delivered', attempts: [{ statusCode: 500 }, { statusCode: 200 }] })
})

t.test('a devolução reaching DEVOLVIDO posts the PIX again with its devolucoes', async t => {
  const app = await buildTestApp(t)
  const r = await receiver(t)
  const { call, paid } = await paidOnKey(t, app, r)
  await r.next()
  t.equal((await call('PUT', `/v2/pix/${paid.endToEndId}/devolucao/d1`, { valor: '5.00' })).statusCode, 201)
  await advance(app, 50)
  const after = await r.next()
  t.ok(callbackBody(after.json()), JSON.stringify(callbackBody.errors ?? []))
  t.match(after.json(), { pix: [{ endToEndId: paid.endToEndId, txid: aTxid(1), devolucoes: [{ id: 'd1', valor: '5.00', status: 'DEVOLVIDO' }] }] })
  t.equal(r.requests.length, 2, 'nothing for the devolução while EM_PROCESSAMENTO')
})

t.test('the delivery faults of the paying request bend the callback: WEBHOOK_BAD_SIGNATURE, WEBHOOK_DROP', async t => {
  const app = await buildTestApp(t)
  const r = await receiver(t)
  await paidOnKey(t, app, r, { 'x-sandbox-scenario': 'WEBHOOK_BAD_SIGNATURE' })
  const forged = await r.next()
  const honest = 'v1=' + createHmac('sha256', 'pix-sandbox-webhook-secret').update(`${forged.headers['x-sandbox-timestamp']}.${forged.body}`).digest('hex')
  t.not(forged.headers['x-sandbox-signature'], honest, 'signed with another secret')

  const dropped = await buildTestApp(t)
  const quiet = await receiver(t)
  const { acc: other } = await paidOnKey(t, dropped, quiet, { 'x-sandbox-scenario': 'WEBHOOK_DROP' })
  await dropped.sandbox.webhooks.idle()
  t.match(await pixDeliveries(dropped, other.accountId), [{ status: 'dropped', url: `${quiet.url}/pix` }])
  t.equal(quiet.requests.length, 0)
})
