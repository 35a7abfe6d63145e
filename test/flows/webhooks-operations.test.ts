import t from 'tap'
import { createHmac } from 'node:crypto'
import { buildTestApp, tokenFor } from '../helpers/app.js'
import { startReceiver } from '../helpers/receiver.js'
import { advance, cashOut, cashOutBody } from '../helpers/payouts.js'

/**
 * Delivery faults on a real operation: a cash-out carrying X-Sandbox-Scenario settles on the clock,
 * its CashOut notification (docs/gateway.md §6.4) goes through the delivery machinery and the fault bends it.
 */
t.test('a cash-out with WEBHOOK_DUPLICATE: its CONFIRMED notification reaches the receiver twice, signed, same id', async t => {
  const app = await buildTestApp(t)
  const r = await startReceiver()
  t.teardown(() => r.close())
  await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_out', url: r.url } })
  const token = await tokenFor(app)

  const res = await cashOut(app, token, cashOutBody({ value: 25 }), 'WEBHOOK_DUPLICATE')
  t.equal(res.statusCode, 201, res.body)
  t.equal(res.headers['x-sandbox-scenario-applied'], 'WEBHOOK_DUPLICATE')
  const { transactionId } = res.json()
  t.equal(r.requests.length, 0, 'nothing before settlement')

  await advance(app, 50)
  const [first, second] = [await r.nth(1), await r.nth(2)]
  t.match(first.json(), { event: 'CashOut', status: 'CONFIRMED', transactionId, originalAmount: 25 })
  t.equal(second.body, first.body)
  t.equal(second.headers['x-sandbox-delivery-id'], first.headers['x-sandbox-delivery-id'])
  const sig = 'v1=' + createHmac('sha256', 'pix-sandbox-webhook-secret').update(`${first.headers['x-sandbox-timestamp']}.${first.body}`).digest('hex')
  t.equal(first.headers['x-sandbox-signature'], sig)

  const wait = await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries/wait?transactionId=${transactionId}&status=delivered&timeoutMs=5000` })
  t.equal(wait.statusCode, 200)
  await app.sandbox.webhooks.idle()
  const log = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?transactionId=${transactionId}` })).json().deliveries
  t.equal(log.length, 1)
  t.same(log[0].scenarios, ['WEBHOOK_DUPLICATE'])
  t.same(log[0].attempts.map((a: { kind: string }) => a.kind), ['first', 'duplicate'])
})

t.test('a cash-out with WEBHOOK_DROP settles normally but its notification is never sent', async t => {
  const app = await buildTestApp(t)
  const r = await startReceiver()
  t.teardown(() => r.close())
  await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_out', url: r.url } })
  const token = await tokenFor(app)
  const dropped = (await cashOut(app, token, cashOutBody(), 'WEBHOOK_DROP')).json()
  const normal = (await cashOut(app, token, cashOutBody())).json()
  await advance(app, 50)
  const got = await r.next()
  t.equal(got.json().transactionId, normal.transactionId)
  await app.sandbox.webhooks.idle()
  t.equal(r.requests.length, 1)
  const [d] = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?transactionId=${dropped.transactionId}` })).json().deliveries
  t.equal(d.status, 'dropped')
  t.equal(d.body.status, 'CONFIRMED', 'the log still shows what would have been sent')
})
