import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { buildTestApp, T0 } from '../helpers/app.js'
import { deadUrl, startReceiver, type Receiver } from '../helpers/receiver.js'
import { signDelivery } from '../../server/webhooks/signature.js'

/**
 * Every delivery fault of the catalogue (scenarios/delivery.ts), triggered the way an integrator does:
 * the X-Sandbox-Scenario header on a request that produces events (here the sample event of
 * POST /__sandbox/webhooks/test), or a scenario armed for the account. Also the long-poll.
 */
async function receiver (t: Test): Promise<Receiver> {
  const r = await startReceiver()
  t.teardown(() => r.close())
  return r
}

async function setup (t: Test, config = {}): Promise<{ app: FastifyInstance, r: Receiver }> {
  const app = await buildTestApp(t, { webhookBackoffMs: 1000, ...config })
  const r = await receiver(t)
  const res = await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_out', url: r.url } })
  t.equal(res.statusCode, 201)
  return { app, r }
}

async function testEvent (app: FastifyInstance, scenario?: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await app.inject({
    method: 'POST',
    url: '/__sandbox/webhooks/test',
    headers: scenario ? { 'x-sandbox-scenario': scenario } : {},
    payload: { accountId: 1, eventType: 'cash_out', ...body },
  })
  if (res.statusCode !== 202) throw new Error(`test event failed: ${res.statusCode} ${res.body}`)
  return { ...res.json(), applied: res.headers['x-sandbox-scenario-applied'] }
}

const advance = (app: FastifyInstance, ms: number) => app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms } })
const get = async (app: FastifyInstance, id: string) => (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries/${id}` })).json()

t.test('without faults the sample event is delivered at once, even with the clock frozen', async t => {
  const { app, r } = await setup(t)
  const ev = await testEvent(app)
  t.equal(ev.deliveries.length, 1)
  t.equal(ev.applied, undefined)
  const got = await r.next()
  t.equal(got.json().event, 'CashOut')
  t.equal(got.json().status, 'CONFIRMED')
  t.equal(got.headers['x-sandbox-delivery-id'], ev.deliveries[0].id)
})

t.test('WEBHOOK_DROP: never sent, logged as dropped', async t => {
  const { app, r } = await setup(t)
  const dropped = await testEvent(app, 'WEBHOOK_DROP')
  t.equal(dropped.applied, 'WEBHOOK_DROP')
  const normal = await testEvent(app)
  const got = await r.next()
  t.equal(got.headers['x-sandbox-delivery-id'], normal.deliveries[0].id, 'the next event arrives, the dropped one never did')
  await advance(app, 3_600_000)
  await app.sandbox.webhooks.idle()
  t.equal(r.requests.length, 1)
  const d = await get(app, dropped.deliveries[0].id)
  t.equal(d.status, 'dropped')
  t.same(d.attempts, [])
  t.same(d.scenarios, ['WEBHOOK_DROP'])
})

t.test('WEBHOOK_DUPLICATE: delivered twice with the same delivery id', async t => {
  const { app, r } = await setup(t)
  const ev = await testEvent(app, 'WEBHOOK_DUPLICATE')
  const [first, second] = [await r.nth(1), await r.nth(2)]
  t.equal(first.headers['x-sandbox-delivery-id'], ev.deliveries[0].id)
  t.equal(second.headers['x-sandbox-delivery-id'], ev.deliveries[0].id, 'same id: a receiver must deduplicate on it')
  t.equal(second.body, first.body)
  await app.sandbox.webhooks.idle()
  const d = await get(app, ev.deliveries[0].id)
  t.equal(d.status, 'delivered')
  t.same(d.attempts.map((a: any) => [a.kind, a.statusCode]), [['first', 200], ['duplicate', 200]])
  await advance(app, 60_000)
  await app.sandbox.webhooks.idle()
  t.equal(r.requests.length, 2, 'exactly twice')
})

t.test('WEBHOOK_DELAY;ms=N: the first attempt comes N ms of sandbox time later', async t => {
  const { app, r } = await setup(t)
  const ev = await testEvent(app, 'WEBHOOK_DELAY;ms=5000')
  t.equal(ev.applied, 'WEBHOOK_DELAY;ms=5000')
  t.equal(ev.deliveries[0].nextAttemptAt, new Date(Date.parse(T0) + 5000).toISOString())
  await advance(app, 4999)
  await app.sandbox.webhooks.idle()
  t.equal(r.requests.length, 0, 'not yet')
  await advance(app, 1)
  const got = await r.next()
  t.equal(got.headers['x-sandbox-timestamp'], String(Date.parse(T0) / 1000 + 5), 'sent at T0 + 5 s of sandbox time')
  await app.sandbox.webhooks.idle()
  const d = await get(app, ev.deliveries[0].id)
  t.equal(d.status, 'delivered')
  t.equal(d.attempts[0].at, new Date(Date.parse(T0) + 5000).toISOString())
})

t.test('WEBHOOK_DELAY without ms is refused for its parameter; an unknown name with the valid scenarios', async t => {
  const { app } = await setup(t)
  const res = await app.inject({ method: 'POST', url: '/__sandbox/webhooks/test', headers: { 'x-sandbox-scenario': 'WEBHOOK_DELAY' }, payload: { accountId: 1, eventType: 'cash_out' } })
  t.equal(res.statusCode, 400)
  t.equal(res.json().code, 'INVALID_SCENARIO_PARAMETER')
  t.equal(res.json().message, 'Scenario WEBHOOK_DELAY needs parameter ms (e.g. WEBHOOK_DELAY;ms=1000)')
  const unknown = await app.inject({ method: 'POST', url: '/__sandbox/webhooks/test', headers: { 'x-sandbox-scenario': 'WEBHOOK_LOST' }, payload: { accountId: 1, eventType: 'cash_out' } })
  t.equal(unknown.statusCode, 400)
  t.match(unknown.json().message, /WEBHOOK_DROP/)
  t.same((await app.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries' })).json().deliveries, [], 'a refused request emits nothing')
})

t.test('WEBHOOK_RECEIVER_TIMEOUT: the first attempt counts as timed out whatever the receiver said, then it is retried', async t => {
  const { app, r } = await setup(t)
  const ev = await testEvent(app, 'WEBHOOK_RECEIVER_TIMEOUT')
  await r.nth(1)
  await app.sandbox.webhooks.idle()
  let d = await get(app, ev.deliveries[0].id)
  t.equal(d.status, 'pending')
  t.equal(d.attempts[0].statusCode, null)
  t.match(d.attempts[0].error, /^TIMEOUT: .*WEBHOOK_RECEIVER_TIMEOUT.*200/)
  t.equal(d.nextAttemptAt, new Date(Date.parse(T0) + 1000).toISOString(), 'retried after the first backoff')
  await advance(app, 1000)
  await r.nth(2)
  await app.sandbox.webhooks.idle()
  d = await get(app, ev.deliveries[0].id)
  t.equal(d.status, 'delivered')
  t.same(d.attempts.map((a: any) => [a.kind, a.statusCode]), [['first', null], ['retry', 200]])
  t.equal(r.requests[0].headers['x-sandbox-delivery-id'], r.requests[1].headers['x-sandbox-delivery-id'])
})

t.test('WEBHOOK_BAD_SIGNATURE: a signature that does not verify, sent once; a refusal ends the delivery, an acceptance delivers it', async t => {
  const { app, r } = await setup(t, { webhookSecret: 'the-shared-secret' })
  r.script([401, 200])
  const refused = await testEvent(app, 'WEBHOOK_BAD_SIGNATURE')
  t.equal(refused.applied, 'WEBHOOK_BAD_SIGNATURE')
  const got = await r.nth(1)
  const timestamp = Number(got.headers['x-sandbox-timestamp'])
  t.match(got.headers['x-sandbox-signature'], /^v1=[0-9a-f]{64}$/, 'well formed')
  t.not(got.headers['x-sandbox-signature'], signDelivery('the-shared-secret', timestamp, got.body), 'but not made with the shared secret')
  await app.sandbox.webhooks.idle()
  await advance(app, 3_600_000)
  await app.sandbox.webhooks.idle()
  t.equal(r.requests.length, 1, 'not retried')
  t.match(await get(app, refused.deliveries[0].id), { status: 'failed', nextAttemptAt: null, attempts: [{ kind: 'first', statusCode: 401 }] })
  const accepted = await testEvent(app, 'WEBHOOK_BAD_SIGNATURE')
  await r.nth(2)
  await app.sandbox.webhooks.idle()
  t.match(await get(app, accepted.deliveries[0].id), { status: 'delivered', attempts: [{ statusCode: 200 }] }, 'a receiver that does not check took the forgery')
  const genuine = await testEvent(app)
  const real = await r.nth(3)
  t.equal(real.headers['x-sandbox-signature'], signDelivery('the-shared-secret', Number(real.headers['x-sandbox-timestamp']), real.body), 'other events stay signed')
  t.equal(genuine.deliveries.length, 1)
})

t.test('WEBHOOK_OUT_OF_ORDER: the later event of a transaction reaches the receiver before the earlier one', async t => {
  const { app, r } = await setup(t)
  const intermediate = await testEvent(app, 'WEBHOOK_OUT_OF_ORDER', { transactionId: 'tx-ooo' })
  await app.sandbox.webhooks.idle()
  t.equal(r.requests.length, 0, 'the first event is held')
  t.equal((await get(app, intermediate.deliveries[0].id)).heldForReorder, true)
  // The final event of the same transaction (a flow would carry the same scenario; it needs not).
  const final = await testEvent(app, undefined, { transactionId: 'tx-ooo' })
  const [a, b] = [await r.nth(1), await r.nth(2)]
  t.equal(a.headers['x-sandbox-delivery-id'], final.deliveries[0].id, 'final first')
  t.equal(b.headers['x-sandbox-delivery-id'], intermediate.deliveries[0].id, 'intermediate second')
  await app.sandbox.webhooks.idle()
  t.equal((await get(app, intermediate.deliveries[0].id)).status, 'delivered')
  t.equal((await get(app, final.deliveries[0].id)).status, 'delivered')
})

t.test('WEBHOOK_OUT_OF_ORDER: an event with no later one is sent alone after the hold window', async t => {
  const { app, r } = await setup(t)
  const ev = await testEvent(app, 'WEBHOOK_OUT_OF_ORDER;ms=500', { transactionId: 'tx-alone' })
  // Another transaction does not release it.
  await testEvent(app, undefined, { transactionId: 'tx-other' })
  await r.nth(1)
  await app.sandbox.webhooks.idle()
  t.equal(r.requests.length, 1)
  await advance(app, 499)
  await app.sandbox.webhooks.idle()
  t.equal(r.requests.length, 1)
  await advance(app, 1)
  const got = await r.nth(2)
  t.equal(got.headers['x-sandbox-delivery-id'], ev.deliveries[0].id)
})

t.test('delivery faults armed for an account apply to its next event', async t => {
  const { app, r } = await setup(t)
  const arm = await app.inject({ method: 'POST', url: '/__sandbox/scenarios/arm', payload: { accountId: 1, scenario: 'WEBHOOK_DROP', endpoint: 'webhook-test', times: 1 } })
  t.equal(arm.statusCode, 201)
  const dropped = await testEvent(app)
  t.equal(dropped.applied, 'WEBHOOK_DROP')
  t.equal(dropped.deliveries[0].status, 'dropped')
  const normal = await testEvent(app)
  t.equal(normal.applied, undefined, 'armed once, used once')
  await r.next()
})

t.test('the wait call answers as soon as a matching delivery exists, without polling', async t => {
  const { app, r } = await setup(t)
  r.script([500], 200)
  // Registered before the event exists: it resolves on the change, not on a timer.
  const waiting = app.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries/wait?accountId=1&transactionId=tx-wait&status=delivered&timeoutMs=30000' })
  const started = Date.now()
  await testEvent(app, undefined, { transactionId: 'tx-wait' })
  await r.nth(1)
  await app.sandbox.webhooks.idle()
  await advance(app, 1000)
  const res = await waiting
  t.equal(res.statusCode, 200)
  t.equal(res.json().status, 'delivered')
  t.equal(res.json().attempts.length, 2)
  t.ok(Date.now() - started < 10_000, 'long before the timeout')

  const existing = await app.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries/wait?transactionId=tx-wait&timeoutMs=0' })
  t.equal(existing.statusCode, 200, 'an existing match answers at once')
  t.equal(existing.json().id, res.json().id)
})

t.test('the wait call answers 408 WAIT_TIMEOUT after timeoutMs of real time', async t => {
  const { app } = await setup(t)
  const res = await app.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries/wait?accountId=1&eventType=med_created&timeoutMs=50' })
  t.equal(res.statusCode, 408)
  t.equal(res.json().code, 'WAIT_TIMEOUT')
  t.equal(res.json().statusCode, 408)
  const tooLong = await app.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries/wait?timeoutMs=60001' })
  t.equal(tooLong.statusCode, 400)
})

t.test('a wait that times out says what became of the closest deliveries: no receiver, pending after a refused connection', async t => {
  const { app } = await setup(t)
  const wait = (query: string) => app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries/wait?timeoutMs=0&${query}` })

  // Account 1 has no receiver of cash_in: the event is logged as no_receiver, and never delivered.
  const none = (await testEvent(app, undefined, { eventType: 'cash_in', transactionId: 'tx-none' })).deliveries[0]
  const unheard = await wait('eventType=cash_in&transactionId=tx-none&status=delivered')
  t.equal(unheard.statusCode, 408)
  t.equal(unheard.json().message, `No matching delivery within 0 ms; the closest: delivery ${none.id} (cash_in, transaction tx-none, account 1) is no receiver: ` +
    'account 1 had no active webhook for cash_in when it happened, so nothing was sent (register one before the operation: POST /__sandbox/webhooks, or the dashboard); ' +
    'it differs in status "no_receiver", not "delivered"')
  t.match(unheard.json().details.nearMisses[0], { id: none.id, status: 'no_receiver', url: null, attempts: 0, lastAttempt: null, differences: [{ field: 'status', expected: 'delivered', actual: 'no_receiver' }] })
  t.match(unheard.json().details.filter, { eventType: 'cash_in', transactionId: 'tx-none', status: 'delivered' }, 'the filter, as before')

  // A receiver that refuses connections: the delivery is pending, its retry due when the frozen clock moves.
  await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'refund_in', url: await deadUrl() } })
  const dead = (await testEvent(app, undefined, { eventType: 'refund_in', transactionId: 'tx-dead' })).deliveries[0]
  for (let i = 0; i < 400 && (await get(app, dead.id)).attempts.length === 0; i++) await new Promise(resolve => setTimeout(resolve, 25))
  const refused = await wait('accountId=1&eventType=refund_in&status=delivered')
  t.equal(refused.statusCode, 408)
  t.match(refused.json().message, new RegExp(`^No matching delivery within 0 ms; the closest: delivery ${dead.id} \\(refund_in, transaction tx-dead, account 1\\) is pending: ` +
    'attempt 1 to http://127\\.0\\.0\\.1:\\d+/dead failed \\(ECONNREFUSED: connect ECONNREFUSED [^)]+\\), the next is due at 2026-03-10T15:00:01\\.000Z of sandbox time ' +
    '\\(the clock is frozen: POST /__sandbox/clock/advance moves it\\); it differs in status "pending", not "delivered"$'))
  const [closest, ...others] = refused.json().details.nearMisses
  t.match(closest, { id: dead.id, status: 'pending', attempts: 1, lastAttempt: { statusCode: null, error: /^ECONNREFUSED/ }, nextAttemptAt: '2026-03-10T15:00:01.000Z' })
  t.ok(others.every((m: { differences: unknown[] }) => m.differences.length >= 1), 'the others follow, fewest fields apart first')
  t.ok(others.some((m: { id: string }) => m.id === none.id), 'the delivery of another event type is a near miss too, further off')

  // Nothing at all in the log: said so.
  const empty = await buildTestApp(t)
  t.equal((await empty.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries/wait?eventType=cash_out&timeoutMs=0' })).json().message, 'No matching delivery within 0 ms; the delivery log holds no delivery at all')
})

t.test('since: a wait without a transaction id never answers with an older delivery', async t => {
  const { app, r } = await setup(t)
  const first = await testEvent(app)
  await r.next()
  const old = first.deliveries[0]
  const wait = (query: string) => app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries/wait?accountId=1&eventType=cash_out&${query}` })
  // Without since, the newest match: the old delivery, at once.
  t.equal((await wait('timeoutMs=0')).json().id, old.id)
  // After that delivery's id: nothing yet, then the next one as soon as it exists.
  t.equal((await wait(`since=${old.id}&timeoutMs=50`)).statusCode, 408)
  const waiting = wait(`since=${old.id}&timeoutMs=30000`)
  const second = await testEvent(app)
  const res = await waiting
  t.equal(res.statusCode, 200)
  t.equal(res.json().id, second.deliveries[0].id)
  t.not(res.json().id, old.id)
  // An instant of sandbox time: at or after it, so the clock's own `now` read before acting works frozen.
  await advance(app, 1000)
  const now = (await app.inject({ method: 'GET', url: '/__sandbox/clock' })).json().now
  t.equal((await wait(`since=${encodeURIComponent(now)}&timeoutMs=50`)).statusCode, 408, 'both earlier deliveries are older than that instant')
  const third = await testEvent(app)
  const at = await wait(`since=${encodeURIComponent(now)}&timeoutMs=0`)
  t.equal(at.json().id, third.deliveries[0].id, 'made at that very instant (the clock is frozen): included')
  const bad = await wait('since=not-a-delivery&timeoutMs=0')
  t.equal(bad.statusCode, 400)
  t.match(bad.json().message, /since must be the id of a delivery in the log or an ISO 8601 instant/)
})

t.test('closing the app ends a pending wait and requests under way', async t => {
  const app = await buildTestApp(t)
  const r = await receiver(t)
  r.script([], 'hang')
  await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_out', url: r.url } })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`
  const waiting = fetch(`${base}/__sandbox/webhooks/deliveries/wait?eventType=med_created&timeoutMs=60000`)
  await testEvent(app)
  await r.next()
  const started = Date.now()
  await app.close()
  t.ok(Date.now() - started < 5000, 'close neither waits for the 60 s long-poll nor for the hung receiver')
  const res = await waiting
  t.equal(res.status, 408)
})
