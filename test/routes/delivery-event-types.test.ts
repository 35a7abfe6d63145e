import t, { type Test } from 'tap'
import { createHmac } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { buildTestApp } from '../helpers/app.js'
import { startReceiver } from '../helpers/receiver.js'
import { dialects } from '../../server/dialects/index.js'
import { exampleDialect } from '../helpers/example-dialect/index.js'
import { DIALECT_EVENT_TYPES } from '../../client/operations.js'
import { DELIVERY_EVENT_TYPES } from '../../server/store/state.js'

/**
 * The control plane's eventType takes every delivery event type of the app's dialects (each
 * descriptor's `deliveries`), not only the built-in ones: POST /__sandbox/webhooks/test and the
 * report's probe send Mercado Pago's `mercado_pago_payment`, the delivery log filters and waits on it,
 * and the OpenAPI document lists it; an app with another dialect takes that one's type too. A type no
 * dialect makes is still a 400 that sends nothing.
 */

const mpSignature = (secret: string, dataId: string, requestId: string, ts: string) =>
  createHmac('sha256', secret).update(`id:${dataId};request-id:${requestId};ts:${ts};`).digest('hex')

async function mpAccountWithHook (t: Test, app: FastifyInstance) {
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  const account = (await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: {} })).json()
  const set = await app.inject({ method: 'PUT', url: `/__sandbox/accounts/${account.accountId}/mercado-pago/webhook`, payload: { url: `${receiver.url}/mp?source=sandbox` } })
  t.equal(set.statusCode, 200, set.body)
  return { account, receiver }
}

const verifies = (req: { headers: Record<string, unknown>, json: () => any }, secret: string) => {
  const parts = Object.fromEntries(String(req.headers['x-signature']).split(',').map(p => p.split('=') as [string, string]))
  return parts.v1 === mpSignature(secret, String(req.json().data.id), String(req.headers['x-request-id']), parts.ts)
}

t.test('POST /__sandbox/webhooks/test sends a sample of mercado_pago_payment, signed as Mercado Pago signs; the log filters and waits on it', async t => {
  const app = await buildTestApp(t)
  const { account, receiver } = await mpAccountWithHook(t, app)
  const sent = await app.inject({ method: 'POST', url: '/__sandbox/webhooks/test', payload: { accountId: account.accountId, eventType: 'mercado_pago_payment' } })
  t.equal(sent.statusCode, 202, sent.body)
  t.equal(sent.json().deliveries.length, 1)
  const req = await receiver.nth(1)
  t.match(req.path, /\/mp\?source=sandbox&data\.id=\d+&type=payment$/)
  t.match(req.json(), { type: 'payment', action: 'payment.updated', user_id: String(account.mercadoPago.userId) })
  t.ok(verifies(req, account.mercadoPago.webhookSecret), 'its x-signature verifies with the account\'s secret')

  const listed = await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${account.accountId}&eventType=mercado_pago_payment` })
  t.equal(listed.statusCode, 200, listed.body)
  t.same(listed.json().deliveries.map((d: any) => d.id), [sent.json().deliveries[0].id])
  const none = await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${account.accountId}&eventType=cash_in` })
  t.same(none.json().deliveries, [], 'a filter of another type leaves it out')
  const waited = await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries/wait?accountId=${account.accountId}&eventType=mercado_pago_payment&timeoutMs=1000` })
  t.equal(waited.statusCode, 200, waited.body)
  t.equal(waited.json().id, sent.json().deliveries[0].id)
})

t.test('the report\'s probe sends mercado_pago_payment with a signature that does not verify, once', async t => {
  const app = await buildTestApp(t)
  const { account, receiver } = await mpAccountWithHook(t, app)
  const probe = await app.inject({ method: 'POST', url: '/__sandbox/report/probe', payload: { accountId: account.accountId, eventType: 'mercado_pago_payment' } })
  t.equal(probe.statusCode, 202, probe.body)
  t.same(probe.json().deliveries.map((d: any) => d.eventType), ['mercado_pago_payment'])
  const req = await receiver.nth(1)
  t.notOk(verifies(req, account.mercadoPago.webhookSecret), 'its x-signature is forged')
  // An account without Mercado Pago's webhook URL has no receiver of it: 409, nothing sent.
  const other = (await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: {} })).json()
  const before = (await app.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries' })).json().total
  const refused = await app.inject({ method: 'POST', url: '/__sandbox/report/probe', payload: { accountId: other.accountId, eventType: 'mercado_pago_payment' } })
  t.equal(refused.statusCode, 409, refused.body)
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries' })).json().total, before)
})

t.test('a type no dialect makes is a 400 that sends nothing; the OpenAPI document lists the app\'s types', async t => {
  const app = await buildTestApp(t)
  const { account, receiver } = await mpAccountWithHook(t, app)
  for (const [method, url, payload] of [
    ['POST', '/__sandbox/webhooks/test', { accountId: account.accountId, eventType: 'example_pix' }],
    ['POST', '/__sandbox/report/probe', { accountId: account.accountId, eventType: 'example_pix' }],
    ['GET', '/__sandbox/webhooks/deliveries?eventType=example_pix', undefined],
    ['GET', '/__sandbox/webhooks/deliveries/wait?eventType=example_pix&timeoutMs=0', undefined],
  ] as const) {
    const res = await app.inject({ method, url, ...(payload ? { payload } : {}) })
    t.equal(res.statusCode, 400, `${url}: ${res.body}`)
    t.match(res.json().message, /mercado_pago_payment/, 'the message names the types taken')
  }
  t.equal(receiver.requests.length, 0)
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries' })).json().total, 0)

  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
  const bodyEnum = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema.properties.eventType.enum
  const queryEnum = (path: string) => doc.paths[path].get.parameters.find((p: any) => p.name === 'eventType').schema.enum
  const types = app.sandbox.deliveries.types
  t.ok(types.includes('mercado_pago_payment') && types.includes('cash_in') && types.includes('pix'))
  // The typed client lists the shipped dialects' own types (it carries no server code): the same, so a typo does not compile and no type is missing.
  t.same([...types].sort(), [...DELIVERY_EVENT_TYPES, ...DIALECT_EVENT_TYPES].sort(), 'the client\'s DIALECT_EVENT_TYPES are the app\'s types beyond the built-in ones')
  t.same(bodyEnum('/__sandbox/webhooks/test'), types)
  t.same(bodyEnum('/__sandbox/report/probe'), types)
  t.same(queryEnum('/__sandbox/webhooks/deliveries'), types)
  t.same(queryEnum('/__sandbox/webhooks/deliveries/wait'), types)
})

t.test('an app with another dialect takes that dialect\'s type too', async t => {
  const app = await buildTestApp(t, {}, { dialects: [...dialects, exampleDialect()] })
  const res = await app.inject({ method: 'POST', url: '/__sandbox/webhooks/test', payload: { accountId: 1, eventType: 'example_pix' } })
  t.equal(res.statusCode, 202, res.body)
  t.same(res.json().deliveries.map((d: any) => [d.eventType, d.status]), [['example_pix', 'no_receiver']])
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
  t.ok(doc.paths['/__sandbox/webhooks/test'].post.requestBody.content['application/json'].schema.properties.eventType.enum.includes('example_pix'))
})
