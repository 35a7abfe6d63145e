import t, { type Test } from 'tap'
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { buildTestApp, T0 } from '../helpers/app.js'
import { deadUrl, startReceiver, type Receiver } from '../helpers/receiver.js'
import { examplePayload } from '../helpers/webhooks.js'

/**
 * Delivery to real receivers on 127.0.0.1: fan-out, retries driven by the sandbox clock, dead and hung
 * receivers, the signature recipe, redelivery and the log. The clock is frozen at T0, so a retry
 * happens only when the test advances the clock, and nothing here sleeps.
 */
async function receiver (t: Test): Promise<Receiver> {
  const r = await startReceiver()
  t.teardown(() => r.close())
  return r
}

async function register (app: FastifyInstance, body: Record<string, unknown>): Promise<number> {
  const res = await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_out', ...body } })
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`)
  return res.json().id
}

async function advance (app: FastifyInstance, ms: number): Promise<void> {
  const res = await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms } })
  if (res.statusCode !== 200) throw new Error(`advance failed: ${res.body}`)
}

async function deliveries (app: FastifyInstance, query = 'accountId=1'): Promise<any[]> {
  return (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?${query}` })).json().deliveries
}

const payload = examplePayload('cash_out', 'tx-1')

t.test('one event fans out to the 3 active URLs, each with its own custom headers, signed', async t => {
  const app = await buildTestApp(t)
  const [a, b, c] = [await receiver(t), await receiver(t), await receiver(t)]
  await register(app, { url: a.url, headers: [{ key: 'X-Api-Key', value: 'key-a' }] })
  await register(app, { url: b.url, headers: [{ key: 'X-Api-Key', value: 'key-b' }, { key: 'X-Tenant', value: 'loja' }] })
  await register(app, { url: c.url })

  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', transactionId: 'tx-1', payload })
  const [ra, rb, rc] = await Promise.all([a.next(), b.next(), c.next()])

  t.equal(ra.headers['x-api-key'], 'key-a')
  t.equal(rb.headers['x-api-key'], 'key-b')
  t.equal(rb.headers['x-tenant'], 'loja')
  t.notOk(rc.headers['x-api-key'], 'a URL without custom headers gets none of the others')
  for (const r of [ra, rb, rc]) {
    t.equal(r.method, 'POST')
    t.equal(r.path, '/hook')
    t.same(r.json(), payload, 'the body is the payload as emitted')
    t.equal(r.headers['content-type'], 'application/json')
    t.match(r.headers['user-agent'], /^pix-sandbox\/\d+\.\d+\.\d+/)
    t.equal(r.headers['x-sandbox-event-type'], 'cash_out')
    t.equal(r.headers['x-sandbox-timestamp'], String(Date.parse(T0) / 1000), 'unix seconds of the sandbox clock')
    // The documented recipe, written out as an integrator would: HMAC-SHA256(secret, `${timestamp}.${rawBody}`).
    const expected = 'v1=' + createHmac('sha256', 'pix-sandbox-webhook-secret').update(`${r.headers['x-sandbox-timestamp']}.${r.body}`).digest('hex')
    const given = String(r.headers['x-sandbox-signature'])
    t.ok(given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected)), 'signature verifies')
  }
  const ids = new Set([ra, rb, rc].map(r => r.headers['x-sandbox-delivery-id']))
  t.equal(ids.size, 3, 'one delivery (and id) per URL')

  await app.sandbox.webhooks.idle()
  const log = await deliveries(app)
  t.equal(log.length, 3)
  t.equal(new Set(log.map(d => d.eventId)).size, 1, 'the three deliveries carry one event')
  t.same(log.map(d => d.status), ['delivered', 'delivered', 'delivered'])
  t.same(new Set(log.map(d => d.id)), ids)
  t.equal(log[0].attempts[0].statusCode, 200)
  t.equal(log[0].attempts[0].responseBody, 'status 200', 'the start of the answer is kept')
})

t.test('a signature made with another secret, or over another body, does not verify', async t => {
  const app = await buildTestApp(t, { webhookSecret: 'shared-secret-of-this-test' })
  const r = await receiver(t)
  await register(app, { url: r.url })
  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', payload })
  const got = await r.next()
  const sign = (secret: string, body: string) => 'v1=' + createHmac('sha256', secret).update(`${got.headers['x-sandbox-timestamp']}.${body}`).digest('hex')
  t.equal(got.headers['x-sandbox-signature'], sign('shared-secret-of-this-test', got.body))
  t.not(got.headers['x-sandbox-signature'], sign('pix-sandbox-webhook-secret', got.body))
  t.not(got.headers['x-sandbox-signature'], sign('shared-secret-of-this-test', got.body + ' '))
})

t.test('500, 500, then 200: three attempts on the backoff of the sandbox clock, all in the log', async t => {
  const app = await buildTestApp(t, { webhookBackoffMs: 1000, webhookMaxAttempts: 5 })
  const r = await receiver(t)
  r.script([500, 500], 200)
  await register(app, { url: r.url })
  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', transactionId: 'tx-retry', payload })

  await r.nth(1)
  await app.sandbox.webhooks.idle()
  let [d] = await deliveries(app)
  t.equal(d.status, 'pending')
  t.equal(d.nextAttemptAt, new Date(Date.parse(T0) + 1000).toISOString(), 'first retry after webhookBackoffMs')

  await advance(app, 999)
  await app.sandbox.webhooks.idle()
  t.equal(r.requests.length, 1, 'not a millisecond early')

  await advance(app, 1)
  await r.nth(2)
  await app.sandbox.webhooks.idle()
  ;[d] = await deliveries(app)
  t.equal(d.status, 'pending')
  t.equal(d.nextAttemptAt, new Date(Date.parse(T0) + 1000 + 2000).toISOString(), 'the backoff doubles')

  await advance(app, 2000)
  await r.nth(3)
  await app.sandbox.webhooks.idle()
  ;[d] = await deliveries(app, 'accountId=1&transactionId=tx-retry')
  t.equal(d.status, 'delivered')
  t.same(d.attempts.map((a: any) => [a.kind, a.statusCode, a.error]), [['first', 500, 'HTTP 500'], ['retry', 500, 'HTTP 500'], ['retry', 200, null]])
  t.same(d.attempts.map((a: any) => a.at), [T0, new Date(Date.parse(T0) + 1000).toISOString(), new Date(Date.parse(T0) + 3000).toISOString()])
  t.ok(d.attempts.every((a: any) => typeof a.latencyMs === 'number'))
  t.equal(new Set(r.requests.map(x => x.headers['x-sandbox-delivery-id'])).size, 1, 'every attempt carries the same delivery id')
  t.same(r.requests.map(x => x.headers['x-sandbox-timestamp']), [0, 1, 3].map(s => String(Date.parse(T0) / 1000 + s)), 'each attempt is signed at its own time')
})

t.test('a dead receiver ends failed after webhookMaxAttempts without holding up a healthy one', async t => {
  const app = await buildTestApp(t, { webhookBackoffMs: 100, webhookMaxAttempts: 3 })
  const healthy = await receiver(t)
  await register(app, { url: await deadUrl() })
  await register(app, { url: healthy.url })

  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', transactionId: 'tx-dead', payload })
  await healthy.next()
  await app.sandbox.webhooks.idle()
  await advance(app, 100)
  await app.sandbox.webhooks.idle()
  await advance(app, 200)
  await app.sandbox.webhooks.idle()

  const log = await deliveries(app)
  const dead = log.find(d => d.url.endsWith('/dead'))
  const ok = log.find(d => d.url === healthy.url)
  t.equal(ok.status, 'delivered')
  t.equal(ok.attempts.length, 1)
  t.equal(dead.status, 'failed')
  t.equal(dead.attempts.length, 3)
  t.ok(dead.attempts.every((a: any) => a.statusCode === null && /ECONNREFUSED/.test(a.error)), 'each attempt records the network error')
  t.equal(dead.nextAttemptAt, null)
  t.equal(healthy.requests.length, 1, 'the healthy receiver got its event once')
})

t.test('a receiver that never answers times out per attempt while the clock and other deliveries go on', async t => {
  // A timeout well beyond what the other delivery takes on a loaded machine: the slow attempt must
  // still be out when that one is delivered.
  const app = await buildTestApp(t, { webhookTimeoutMs: 2500, webhookBackoffMs: 1000, webhookMaxAttempts: 2 })
  const slow = await receiver(t)
  const fast = await receiver(t)
  slow.script([], 'hang')
  await register(app, { url: slow.url })
  await register(app, { eventType: 'cash_in', url: fast.url })

  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', transactionId: 'tx-slow', payload })
  await slow.next()
  // While the slow request hangs, the clock moves and another event is delivered.
  await advance(app, 10)
  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_in', transactionId: 'tx-fast', payload: examplePayload('cash_in') })
  await fast.next()
  const wait = await app.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries/wait?transactionId=tx-fast&status=delivered&timeoutMs=5000' })
  t.equal(wait.statusCode, 200)
  const [pendingSlow] = await deliveries(app, 'transactionId=tx-slow')
  t.equal(pendingSlow.attempts.length, 0, 'the slow attempt is still out')

  await app.sandbox.webhooks.idle()
  let [d] = await deliveries(app, 'transactionId=tx-slow')
  t.equal(d.status, 'pending')
  t.match(d.attempts[0].error, /^TIMEOUT/)
  t.equal(d.attempts[0].statusCode, null)
  await advance(app, 1000)
  await slow.nth(2)
  await app.sandbox.webhooks.idle()
  ;[d] = await deliveries(app, 'transactionId=tx-slow')
  t.equal(d.status, 'failed')
  t.equal(d.attempts.length, 2)
})

t.test('a receiver that resets the connection is a failed attempt, retried', async t => {
  const app = await buildTestApp(t, { webhookBackoffMs: 10 })
  const r = await receiver(t)
  r.script(['reset'], 204)
  await register(app, { url: r.url })
  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', payload })
  await r.nth(1)
  await app.sandbox.webhooks.idle()
  await advance(app, 10)
  await r.nth(2)
  await app.sandbox.webhooks.idle()
  const [d] = await deliveries(app)
  t.equal(d.status, 'delivered')
  t.equal(d.attempts[0].statusCode, null)
  t.match(d.attempts[0].error, /SOCKET|ECONNRESET|other side closed/i)
  t.equal(d.attempts[1].statusCode, 204)
})

t.test('an event with no active URL is logged as no_receiver', async t => {
  const app = await buildTestApp(t)
  const r = await receiver(t)
  const id = await register(app, { url: r.url })
  await app.inject({ method: 'PATCH', url: `/__sandbox/webhooks/${id}`, payload: { isActive: false } })
  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', transactionId: 'tx-none', payload })
  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'refund_out', transactionId: 'tx-none', payload: examplePayload('refund_out') })
  await app.sandbox.webhooks.idle()
  const log = await deliveries(app, 'accountId=1&transactionId=tx-none')
  t.same(log.map(d => [d.eventType, d.status, d.url, d.attempts.length]), [['refund_out', 'no_receiver', null, 0], ['cash_out', 'no_receiver', null, 0]], 'newest first')
  t.equal(r.requests.length, 0, 'an inactive URL gets nothing')
  const redeliver = await app.inject({ method: 'POST', url: `/__sandbox/webhooks/deliveries/${log[0].id}/redeliver` })
  t.equal(redeliver.statusCode, 409)
  t.equal(redeliver.json().code, 'NO_RECEIVER')
})

t.test('redeliver sends a failed delivery again now, with the same id, and records it', async t => {
  const app = await buildTestApp(t, { webhookMaxAttempts: 1 })
  const r = await receiver(t)
  r.script([503], 200)
  await register(app, { url: r.url })
  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', payload })
  await r.nth(1)
  await app.sandbox.webhooks.idle()
  let [d] = await deliveries(app)
  t.equal(d.status, 'failed', 'one attempt allowed')

  const res = await app.inject({ method: 'POST', url: `/__sandbox/webhooks/deliveries/${d.id}/redeliver` })
  t.equal(res.statusCode, 202)
  t.equal(res.json().id, d.id)
  const again = await r.nth(2)
  t.equal(again.headers['x-sandbox-delivery-id'], d.id)
  await app.sandbox.webhooks.idle()
  d = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries/${d.id}` })).json()
  t.equal(d.status, 'delivered')
  t.same(d.attempts.map((a: any) => [a.kind, a.statusCode]), [['first', 503], ['redeliver', 200]])

  const missing = await app.inject({ method: 'POST', url: '/__sandbox/webhooks/deliveries/nope/redeliver' })
  t.equal(missing.statusCode, 404)
  t.equal(missing.json().code, 'DELIVERY_NOT_FOUND')
})

t.test('the log is capped per account, dropping the oldest finished deliveries first', async t => {
  const app = await buildTestApp(t, { deliveryLogSize: 3, webhookBackoffMs: 60_000 })
  const r = await receiver(t)
  r.script([500], 200)
  await register(app, { url: r.url })
  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', transactionId: 'p', payload })
  await r.nth(1)
  await app.sandbox.webhooks.idle()
  for (const tx of ['a', 'b', 'c', 'd']) {
    app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', transactionId: tx, payload })
    await app.sandbox.webhooks.idle()
  }
  const log = await deliveries(app)
  t.same(log.map(d => [d.transactionId, d.status]), [['d', 'delivered'], ['c', 'delivered'], ['p', 'pending']], 'the pending retry outlives newer finished deliveries')
  const other = await deliveries(app, 'accountId=2')
  t.same(other, [])
})

t.test('a burst over the cap loses no webhook: pending deliveries stay until they finish, then the log is trimmed', async t => {
  const app = await buildTestApp(t, { deliveryLogSize: 3 })
  const r = await receiver(t)
  await register(app, { url: r.url })
  const delay = [{ name: 'WEBHOOK_DELAY', params: { ms: '1000' } }]
  for (const tx of ['a', 'b', 'c', 'd', 'e']) app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', transactionId: tx, payload, scenarios: delay })
  t.equal((await deliveries(app)).length, 5, 'over the cap while pending')
  await advance(app, 1000)
  await r.nth(5)
  await app.sandbox.webhooks.idle()
  t.equal(r.requests.length, 5, 'the five arrived')
  t.same((await deliveries(app)).map(d => [d.transactionId, d.status]), [['e', 'delivered'], ['d', 'delivered'], ['c', 'delivered']])
})

t.test('the log filters by event type, transaction and status, and limits', async t => {
  const app = await buildTestApp(t)
  const r = await receiver(t)
  await register(app, { url: r.url })
  await register(app, { url: r.url, eventType: 'cash_in' })
  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', transactionId: 'x', payload })
  const refund = examplePayload('refund_in')
  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_in', transactionId: 'y', payload: examplePayload('cash_in') })
  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'refund_in', transactionId: 'y', payload: refund })
  await r.nth(2)
  await app.sandbox.webhooks.idle()
  t.same((await deliveries(app, 'eventType=cash_in')).map(d => d.transactionId), ['y'])
  t.same((await deliveries(app, 'transactionId=y')).map(d => d.eventType), ['refund_in', 'cash_in'])
  t.same((await deliveries(app, 'status=delivered')).map(d => d.eventType), ['cash_in', 'cash_out'])
  t.equal((await deliveries(app, 'limit=1')).length, 1)
  const [one] = await deliveries(app, 'limit=1')
  t.equal(one.eventType, 'refund_in', 'newest first')
  t.same(one.body, refund)
  const bad = await app.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries?status=lost' })
  t.equal(bad.statusCode, 400)
  t.equal(bad.json().code, 'HTTP_ERROR')
})

t.test('only the first kilobyte of a long answer is kept, and a large answer does not fail the attempt', async t => {
  const app = await buildTestApp(t)
  const r = await receiver(t)
  r.script([{ status: 200, body: 'x'.repeat(200 * 1024) }])
  await register(app, { url: r.url })
  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', payload })
  await r.next()
  await app.sandbox.webhooks.idle()
  const [d] = await deliveries(app)
  t.equal(d.status, 'delivered')
  t.equal(d.attempts[0].responseBody, 'x'.repeat(1024))
})

t.test('redelivery that fails: a delivered one becomes failed, a pending one keeps its retry schedule', async t => {
  const app = await buildTestApp(t, { webhookBackoffMs: 1000 })
  const r = await receiver(t)
  r.script([200, 500, 500, 500], 200)
  await register(app, { url: r.url })
  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', transactionId: 'ok', payload })
  await r.nth(1)
  await app.sandbox.webhooks.idle()
  const [delivered] = await deliveries(app)
  await app.inject({ method: 'POST', url: `/__sandbox/webhooks/deliveries/${delivered.id}/redeliver` })
  await r.nth(2)
  await app.sandbox.webhooks.idle()
  t.equal((await deliveries(app, 'transactionId=ok'))[0].status, 'failed', 'the status says how the latest send went')

  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', transactionId: 'retrying', payload })
  await r.nth(3)
  await app.sandbox.webhooks.idle()
  const [pending] = await deliveries(app, 'transactionId=retrying')
  await app.inject({ method: 'POST', url: `/__sandbox/webhooks/deliveries/${pending.id}/redeliver` })
  await r.nth(4)
  await app.sandbox.webhooks.idle()
  const [still] = await deliveries(app, 'transactionId=retrying')
  t.equal(still.status, 'pending')
  t.equal(still.nextAttemptAt, pending.nextAttemptAt, 'the retry stays where it was')
  await advance(app, 1000)
  await r.nth(5)
  await app.sandbox.webhooks.idle()
  t.equal((await deliveries(app, 'transactionId=retrying'))[0].status, 'delivered')
})

t.test('WEBHOOK_OUT_OF_ORDER: a held event whose URL got no later delivery goes out when the later event comes', async t => {
  const app = await buildTestApp(t)
  const a = await receiver(t)
  const b = await receiver(t)
  const idA = await register(app, { url: a.url })
  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', transactionId: 'tx', payload, scenarios: [{ name: 'WEBHOOK_OUT_OF_ORDER', params: {} }] })
  await app.inject({ method: 'PATCH', url: `/__sandbox/webhooks/${idA}`, payload: { isActive: false } })
  await register(app, { url: b.url })
  app.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', transactionId: 'tx', payload: { ...payload, status: 'ERROR' } })
  t.equal((await b.next()).json().status, 'ERROR')
  t.equal((await a.next()).json().status, 'CONFIRMED', 'released without waiting for the window')
})

t.test('a pending retry survives a restart with --data and goes out when its time comes', async t => {
  const { mkdtempSync, rmSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const { buildApp } = await import('../../server/app.js')
  const dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-deliveries-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const config = { data: join(dir, 'state.json'), seed: 's', clock: 'frozen' as const, clockStart: T0, webhookBackoffMs: 1000 }
  const r = await receiver(t)
  r.script([500], 200)

  const before = await buildApp({ config })
  await register(before, { url: r.url })
  before.sandbox.webhooks.emit({ accountId: 1, eventType: 'cash_out', transactionId: 'tx-restart', payload })
  await r.nth(1)
  await before.sandbox.webhooks.idle()
  await before.close()

  const after = await buildApp({ config })
  t.teardown(() => after.close())
  const [d] = await deliveries(after)
  t.equal(d.status, 'pending')
  t.equal(d.nextAttemptAt, new Date(Date.parse(T0) + 1000).toISOString())
  await advance(after, 1000)
  const again = await r.nth(2)
  t.equal(again.headers['x-sandbox-delivery-id'], d.id)
  await after.sandbox.webhooks.idle()
  const [done] = await deliveries(after)
  t.equal(done.status, 'delivered')
  t.same(done.attempts.map((a: any) => a.kind), ['first', 'retry'])
})
