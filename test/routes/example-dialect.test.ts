import t from 'tap'
import { buildTestApp, fixtureAccount, tokenFor, bearer } from '../helpers/app.js'
import { startReceiver } from '../helpers/receiver.js'
import { dialects } from '../../server/dialects/index.js'
import { createHmac } from 'node:crypto'
import { EXAMPLE_SIGNING_KEY, exampleDialect } from '../helpers/example-dialect/index.js'

/**
 * A new dialect is its folder and its place in the list of dialects (CONTRIBUTING.md, "How to add a
 * dialect"): the example dialect of test/helpers/example-dialect/, handed to buildApp beside the
 * registry's, answers on its routes with its own credentials, in its own error shape, under the
 * transport faults of its scenario endpoint, is documented in the OpenAPI document, and its notifier
 * turns a PIX received into a delivery of its own event type; nothing else of the sandbox names it.
 */

const key = { 'x-example-key': fixtureAccount.clientSecret }

t.test('its route answers with its own credentials, in its own error shape', async t => {
  const app = await buildTestApp(t, {}, { dialects: [...dialects, exampleDialect()] })
  const ok = await app.inject({ method: 'GET', url: '/example/v1/accounts/1/balance', headers: key })
  t.equal(ok.statusCode, 200)
  t.same(Object.keys(ok.json()), ['accountId', 'available'])
  t.equal(ok.json().accountId, 1)

  const wrongKey = await app.inject({ method: 'GET', url: '/example/v1/accounts/1/balance', headers: { 'x-example-key': 'nope' } })
  t.equal(wrongKey.statusCode, 401)
  t.same(wrongKey.json(), { ok: false, reason: 'UNAUTHORIZED', message: 'a wrong x-example-key' })

  // Invalid input is a 422 in this dialect (its column of the error table), in its shape.
  const invalid = await app.inject({ method: 'PUT', url: '/example/v1/accounts/1/hook', headers: key, payload: {} })
  t.equal(invalid.statusCode, 422)
  t.match(invalid.json(), { ok: false, reason: 'INVALID_REQUEST', message: /url/ })

  // A code of its own, with its status in its column.
  const noHook = await app.inject({ method: 'DELETE', url: '/example/v1/accounts/1/hook', headers: key })
  t.equal(noHook.statusCode, 409)
  t.same(noHook.json(), { ok: false, reason: 'EXAMPLE_NO_HOOK', message: 'the account has no hook' })

  // A path of its own that no route serves is its 404; a gateway path keeps the gateway's shape.
  const nowhere = await app.inject({ method: 'GET', url: '/example/v1/nowhere' })
  t.equal(nowhere.statusCode, 404)
  t.match(nowhere.json(), { ok: false, reason: 'ROUTE_NOT_FOUND' })
  const gateway = await app.inject({ method: 'GET', url: '/nowhere' })
  t.same(Object.keys(gateway.json()).sort(), ['error', 'message', 'statusCode'], 'the central-bank-compatible family\'s simple shape')
})

t.test('its scenario endpoint takes the transport faults, answered in its shape; the OpenAPI document lists its operations', async t => {
  const app = await buildTestApp(t, {}, { dialects: [...dialects, exampleDialect()] })
  const down = await app.inject({ method: 'GET', url: '/example/v1/accounts/1/balance', headers: { ...key, 'x-sandbox-scenario': 'SERVICE_UNAVAILABLE' } })
  t.equal(down.statusCode, 503)
  t.match(down.json(), { ok: false, reason: 'SERVICE_UNAVAILABLE' })
  t.equal(down.headers['x-sandbox-scenario-applied'], 'SERVICE_UNAVAILABLE')

  const doc = app.swagger() as unknown as { tags: Array<{ name: string }>, paths: Record<string, Record<string, { operationId: string, responses: Record<string, unknown> }>>, components: { schemas: Record<string, unknown> } }
  t.ok(doc.tags.some(tag => tag.name === 'Example'), 'its tag')
  const balance = doc.paths['/example/v1/accounts/{id}/balance'].get
  t.equal(balance.operationId, 'exampleBalance')
  t.ok(['401', '422', '429', '503'].every(s => s in balance.responses), 'its credentials, its invalid input and the transport faults declared')
  t.ok('ExampleError' in doc.components.schemas, 'its error body a component of the document')
})

t.test('its notifier turns a PIX received into a delivery of its own event type, through the one delivery machinery', async t => {
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  const app = await buildTestApp(t, { selfWebhooks: 'enabled' }, { dialects: [...dialects, exampleDialect()] })
  const hook = await app.inject({ method: 'PUT', url: '/example/v1/accounts/1/hook', headers: key, payload: { url: receiver.url } })
  t.equal(hook.statusCode, 200)

  const token = await tokenFor(app)
  const cashIn = await app.inject({
    method: 'POST',
    url: '/api/pix/cash-in',
    headers: bearer(token),
    payload: { transaction: { value: 12.34, description: 'pedido', externalId: 'example-1' }, payer: { fullName: 'CLIENTE', document: '52998224725' } },
  })
  t.equal(cashIn.statusCode, 201)
  const paid = await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: cashIn.json().pixCode } })
  t.equal(paid.statusCode, 201)

  const delivered = await receiver.next()
  t.equal(delivered.headers['x-sandbox-event-type'], 'example_pix')
  t.same(delivered.json(), { kind: 'pix', transactionId: cashIn.json().transactionId, amount: 12.34 })
  t.ok(String(delivered.headers['x-sandbox-signature']).startsWith('v1='), 'signed as every delivery is')
  const expected = createHmac('sha256', EXAMPLE_SIGNING_KEY).update(`${String(delivered.headers['x-sandbox-timestamp'])}.${delivered.body}`).digest('hex')
  t.equal(delivered.headers['x-example-signature'], expected, 'and with its dialect\'s own signature')
  const log = (await app.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries?accountId=1' })).json().deliveries as Array<{ eventType: string }>
  t.same(log.map(d => d.eventType).sort(), ['cash_in', 'example_pix'], 'beside the gateway\'s cash_in, in the same log')

  // The report's probe reaches the dialect's webhook too, with its sample.
  const probe = await app.inject({ method: 'POST', url: '/__sandbox/report/probe', payload: { accountId: 1 } })
  t.equal(probe.statusCode, 202)
  t.equal(probe.json().deliveries[0].eventType, 'example_pix')
  const forged = await receiver.next()
  t.equal(forged.headers['x-sandbox-event-type'], 'example_pix')
  t.not(forged.headers['x-example-signature'], createHmac('sha256', EXAMPLE_SIGNING_KEY).update(`${String(forged.headers['x-sandbox-timestamp'])}.${forged.body}`).digest('hex'), 'the probe\'s signature is forged in its dialect\'s header too')
})

t.test('without it in the list, the sandbox knows nothing of it', async t => {
  const app = await buildTestApp(t)
  const res = await app.inject({ method: 'GET', url: '/example/v1/accounts/1/balance', headers: key })
  t.equal(res.statusCode, 404)
  t.same(Object.keys(res.json()).sort(), ['error', 'message', 'statusCode'], 'an unknown path of the gateway')
})
