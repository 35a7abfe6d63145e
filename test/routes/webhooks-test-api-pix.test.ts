import t, { type Test } from 'tap'
import { createHmac } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { buildTestApp, newAccount } from '../helpers/app.js'
import { apiPixBacen, apiPixClient, oauthToken } from '../helpers/api-pix.js'
import { schemaValidator } from '../helpers/api-pix-schemas.js'
import { startReceiver, type Receiver, type ReceivedRequest } from '../helpers/receiver.js'

/**
 * POST /__sandbox/webhooks/test for API Pix's callbacks (docs/api-pix.md, webhook and Pix Automático):
 * the sample of `rec`, `cobr` or `pix` reaches the account's /webhookrec, /webhookcobr or
 * /webhook/{chave} at `{webhookUrl}/<callback>`, in the callback's own shape, signed and logged as
 * any delivery, beside the registrations of its type; `no_receiver` only when the account has neither.
 */

const DOCUMENT = '11222333000181'
const KEY = 'loja@example.com'
const bodyOf = {
  rec: apiPixBacen.requestBody('WebhookRecBody'),
  cobr: apiPixBacen.requestBody('WebhookCobRBody'),
  pix: apiPixBacen.requestBody('WebhookPixBody'),
}
const recNotification = schemaValidator(apiPixBacen.doc.components)('RecNotification')

async function receiver (t: Test): Promise<Receiver> {
  const r = await startReceiver()
  t.teardown(() => r.close())
  return r
}

/** An account holding its document and KEY as keys, and a token of it. */
async function accountWithKeys (app: FastifyInstance) {
  const acc = await newAccount(app, { document: DOCUMENT, balance: 0 })
  const { ispb } = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  await app.inject({ method: 'PUT', url: `/__sandbox/directory/${KEY}`, payload: { name: 'LOJA', document: DOCUMENT, ispb, bankName: 'SANDBOX' } })
  return { accountId: acc.accountId as number, call: apiPixClient(app, await oauthToken(app, acc)) }
}

const sample = (app: FastifyInstance, payload: object, scenario?: string) =>
  app.inject({ method: 'POST', url: '/__sandbox/webhooks/test', payload, ...(scenario !== undefined ? { headers: { 'x-sandbox-scenario': scenario } } : {}) })

function signed (t: Test, got: ReceivedRequest): void {
  const expected = 'v1=' + createHmac('sha256', 'pix-sandbox-webhook-secret').update(`${got.headers['x-sandbox-timestamp']}.${got.body}`).digest('hex')
  t.equal(got.headers['x-sandbox-signature'], expected, `${got.path}: signed as every delivery`)
}

t.test('the sample of a callback goes to the account\'s webhook of API Pix for it, in its own shape, signed and logged', async t => {
  const app = await buildTestApp(t)
  const r = await receiver(t)
  const { accountId, call } = await accountWithKeys(app)
  t.equal((await call('PUT', '/v2/webhookrec', { webhookUrl: `${r.url}/recs` })).statusCode, 200)
  t.equal((await call('PUT', '/v2/webhookcobr', { webhookUrl: `${r.url}/cobrs` })).statusCode, 200)
  t.equal((await call('PUT', `/v2/webhook/${DOCUMENT}`, { webhookUrl: `${r.url}/doc` })).statusCode, 200)
  t.equal((await call('PUT', `/v2/webhook/${KEY}`, { webhookUrl: `${r.url}/key` })).statusCode, 200)
  const path = (p: string) => new URL(`${r.url}${p}`).pathname

  const rec = await sample(app, { accountId, eventType: 'rec', transactionId: 'sample-rec' })
  t.equal(rec.statusCode, 202, rec.body)
  t.match(rec.json().deliveries, [{ eventType: 'rec', transactionId: 'sample-rec', webhookId: null, url: `${r.url}/recs/rec` }])
  const gotRec = await r.nth(1)
  t.equal(gotRec.path, path('/recs/rec'))
  signed(t, gotRec)
  t.ok(bodyOf.rec(gotRec.json()), `WebhookRecBody: ${JSON.stringify(bodyOf.rec.errors ?? [])}`)
  t.ok(recNotification(gotRec.json().recs[0]), 'a RecNotification')

  const cobr = await sample(app, { accountId, eventType: 'cobr' })
  t.equal(cobr.statusCode, 202, cobr.body)
  t.match(cobr.json().deliveries, [{ eventType: 'cobr', webhookId: null, url: `${r.url}/cobrs/cobr` }])
  const gotCobr = await r.nth(2)
  t.equal(gotCobr.path, path('/cobrs/cobr'))
  signed(t, gotCobr)
  t.ok(bodyOf.cobr(gotCobr.json()), `WebhookCobRBody: ${JSON.stringify(bodyOf.cobr.errors ?? [])}`)
  t.match(gotCobr.json(), { cobsr: [{ status: 'CONCLUIDA', tentativas: [{ status: 'PAGA' }], pix: [{ valor: '10.00' }] }] })

  const pix = await sample(app, { accountId, eventType: 'pix' })
  t.equal(pix.statusCode, 202, pix.body)
  const deliveries = pix.json().deliveries as Array<{ url: string, eventId: string }>
  t.same(deliveries.map(d => d.url), [`${r.url}/doc/pix`, `${r.url}/key/pix`], 'to the webhook of each key')
  t.equal(new Set(deliveries.map(d => d.eventId)).size, 1, 'one event')
  const gotPix = [await r.nth(3), await r.nth(4)]
  t.same(gotPix.map(g => g.path).sort(), [path('/doc/pix'), path('/key/pix')])
  for (const got of gotPix) {
    signed(t, got)
    t.ok(bodyOf.pix(got.json()), `WebhookPixBody: ${JSON.stringify(bodyOf.pix.errors ?? [])}`)
  }

  const log = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${accountId}&transactionId=sample-rec` })).json().deliveries
  t.match(log, [{ eventType: 'rec', url: `${r.url}/recs/rec` }], 'in the delivery log under its transactionId')
})

t.test('a sample of rec goes to /webhookrec and the registrations of rec as one event; bent by the delivery scenarios; no_receiver only with neither', async t => {
  const app = await buildTestApp(t)
  const r = await receiver(t)
  const { accountId, call } = await accountWithKeys(app)
  for (const eventType of ['rec', 'cobr', 'pix']) {
    const none = await sample(app, { accountId, eventType })
    t.equal(none.statusCode, 202, none.body)
    t.match(none.json().deliveries, [{ eventType, status: 'no_receiver', url: null }], `${eventType}: nothing to send to, recorded`)
  }

  t.equal((await call('PUT', '/v2/webhookrec', { webhookUrl: r.url })).statusCode, 200)
  const registered = await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId, eventType: 'rec', url: `${r.url}/gateway` } })
  t.equal(registered.statusCode, 201, registered.body)
  const both = await sample(app, { accountId, eventType: 'rec' })
  t.equal(both.statusCode, 202, both.body)
  const deliveries = both.json().deliveries as Array<{ url: string, eventId: string, webhookId: number | null }>
  t.same(deliveries.map(d => [d.url, d.webhookId === null]), [[`${r.url}/gateway`, false], [`${r.url}/rec`, true]], 'the registration and /webhookrec')
  t.equal(new Set(deliveries.map(d => d.eventId)).size, 1, 'one event')
  const paths = [(await r.nth(1)).path, (await r.nth(2)).path].sort()
  t.same(paths, [new URL(`${r.url}/gateway`).pathname, new URL(`${r.url}/rec`).pathname].sort())

  t.equal((await call('PUT', '/v2/webhookcobr', { webhookUrl: r.url })).statusCode, 200)
  const twice = await sample(app, { accountId, eventType: 'cobr' }, 'WEBHOOK_DUPLICATE')
  t.equal(twice.statusCode, 202, twice.body)
  const copies = [await r.nth(3), await r.nth(4)]
  t.same(copies.map(c => c.path), [new URL(`${r.url}/cobr`).pathname, new URL(`${r.url}/cobr`).pathname])
  t.equal(copies[0].headers['x-sandbox-delivery-id'], copies[1].headers['x-sandbox-delivery-id'], 'WEBHOOK_DUPLICATE: the same delivery twice')
})

t.test('the report\'s probe reaches an account whose only receiver is a webhook of API Pix; 409 NO_RECEIVER with none', async t => {
  const app = await buildTestApp(t)
  const r = await receiver(t)
  const { accountId, call } = await accountWithKeys(app)
  const probe = (eventType?: string) => app.inject({ method: 'POST', url: '/__sandbox/report/probe', payload: { accountId, ...(eventType !== undefined ? { eventType } : {}) } })
  const none = await probe()
  t.equal(none.statusCode, 409, none.body)
  t.equal(none.json().code, 'NO_RECEIVER')

  t.equal((await call('PUT', '/v2/webhookcobr', { webhookUrl: r.url })).statusCode, 200)
  const sent = await probe()
  t.equal(sent.statusCode, 202, sent.body)
  t.match(sent.json().deliveries, [{ eventType: 'cobr', webhookId: null, url: `${r.url}/cobr`, scenarios: ['WEBHOOK_BAD_SIGNATURE'] }], 'the first type with a receiver: /webhookcobr\'s')
  const got = await r.nth(1)
  t.equal(got.path, new URL(`${r.url}/cobr`).pathname)
  t.ok(bodyOf.cobr(got.json()), 'the sample of cobr')
  const right = 'v1=' + createHmac('sha256', 'pix-sandbox-webhook-secret').update(`${got.headers['x-sandbox-timestamp']}.${got.body}`).digest('hex')
  t.not(got.headers['x-sandbox-signature'], right, 'signed with another secret')
  const noRec = await probe('rec')
  t.equal(noRec.statusCode, 409, 'none for the type asked')
  t.match(noRec.json(), { code: 'NO_RECEIVER', message: /rec/ })
})
