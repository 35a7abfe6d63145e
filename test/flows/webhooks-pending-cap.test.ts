import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { buildTestApp } from '../helpers/app.js'
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { deadUrl, startReceiver } from '../helpers/receiver.js'
import { gatewaySamples } from '../../server/dialects/gateway/samples.js'

/**
 * Deliveries still pending are bounded (docs/reliability.md); untrimmed, 20,000 events to a dead receiver with a
 * frozen clock kept 20,000 deliveries and 20,000 jobs. Beyond SANDBOX_MAX_PENDING_DELIVERIES per
 * account pending for receivers that fail, the oldest of them fail with PENDING_LIMIT, their retries and
 * attempts under way are dropped, and other accounts are untouched; a receiver that answers is never
 * given up on. (bench/pending-deliveries.ts measures the memory.)
 */
const emit = (app: FastifyInstance, accountId = 1) =>
  app.inject({ method: 'POST', url: '/__sandbox/webhooks/test', payload: { accountId, eventType: 'cash_in' } })
const all = async (app: FastifyInstance, accountId = 1): Promise<any[]> =>
  (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${accountId}&limit=1000` })).json().deliveries
const jobs = async (app: FastifyInstance): Promise<number> => (await app.inject({ method: 'GET', url: '/__sandbox/clock' })).json().pendingJobs

t.test('a dead receiver with a frozen clock: at most the cap stays pending, the oldest fail with the reason', async t => {
  const app = await buildTestApp(t, { maxPendingDeliveries: 3 })
  const url = await deadUrl()
  await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_in', url } })
  const other = (await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: {} })).json().accountId
  await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: other, eventType: 'cash_in', url } })
  const ids: string[] = []
  for (let i = 0; i < 8; i++) ids.push((await emit(app)).json().deliveries[0].id)
  for (let i = 0; i < 2; i++) await emit(app, other)
  await app.sandbox.webhooks.idle()

  const log = await all(app)
  const byId = new Map(log.map(d => [d.id, d]))
  t.same(ids.slice(5).map(id => byId.get(id).status), ['pending', 'pending', 'pending'], 'the newest 3 are pending')
  for (const id of ids.slice(0, 5)) {
    const d = byId.get(id)
    t.equal(d.status, 'failed', 'the oldest failed')
    t.match(d.failureReason, /^PENDING_LIMIT: account 1 had more than 3 deliveries pending \(SANDBOX_MAX_PENDING_DELIVERIES\)/)
    t.equal(d.nextAttemptAt, null, 'no retry left')
  }
  t.same((await all(app, other)).map(d => d.status), ['pending', 'pending'], 'another account keeps its own')
  t.equal(await jobs(app), 5, 'one retry job per pending delivery, and none for the given-up ones')

  await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 60_000 } })
  await app.sandbox.webhooks.idle()
  t.equal((await all(app)).filter(d => d.attempts.length > 1).length, 3, 'only the pending ones were retried')
})

t.test('a receiver that failed and now hangs: a delivery given up has its attempt under way cancelled', async t => {
  const app = await buildTestApp(t, { maxPendingDeliveries: 1, webhookTimeoutMs: 600_000 })
  // Answers its first request 500 (the receiver fails, so the cap counts its deliveries), then takes
  // each request and never answers; tells when a request arrives, and when the connection of each closes.
  const arrived: Array<() => void> = []
  const carried: Array<Promise<void>> = []
  const sockets = new Set<Socket>()
  const server = createServer(socket => {
    sockets.add(socket)
    const closed = new Promise<void>(resolve => socket.on('close', () => resolve()))
    socket.on('data', () => {
      carried.push(closed)
      if (carried.length === 1) socket.end('HTTP/1.1 500 Internal Server Error\r\nconnection: close\r\ncontent-length: 0\r\n\r\n')
      arrived.shift()?.()
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>(resolve => {
    for (const socket of sockets) socket.destroy()
    server.close(() => resolve())
  }))
  const port = (server.address() as AddressInfo).port
  await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_in', url: `http://127.0.0.1:${port}/hang` } })
  const failed = (await emit(app)).json().deliveries[0].id
  await app.sandbox.webhooks.idle()
  const secondArrived = new Promise<void>(resolve => arrived.push(resolve))
  const first = (await emit(app)).json().deliveries[0].id
  const given0 = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries/${failed}` })).json()
  t.match(given0, { status: 'failed', failureReason: /^PENDING_LIMIT/, attempts: [{ statusCode: 500 }] }, 'the failed one, waiting for its retry, was given up')
  await secondArrived
  await emit(app)
  const given = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries/${first}` })).json()
  t.equal(given.status, 'failed')
  t.match(given.failureReason, /^PENDING_LIMIT/)
  await carried[1]
  t.pass('the hanging request of the given-up delivery was cancelled (its connection closed) long before its timeout')
  t.same(given.attempts, [], 'and no attempt is recorded for it')
})

t.test('a receiver that answers is owed every delivery: a burst far beyond the cap is never given up', async t => {
  const app = await buildTestApp(t, { maxPendingDeliveries: 3 })
  const rx = await startReceiver()
  t.teardown(() => rx.close())
  await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_in', url: rx.url } })
  // One burst the sandbox makes itself, as a long jump of the clock does: 200 events in one turn.
  const events = 200
  const sb = app.sandbox
  const account = sb.accounts.require(1)
  const made = sb.store.transact(() => Array.from({ length: events }, (_, i) => {
    const payload = gatewaySamples.cash_in({ account, transactionId: `tx-${i}`, nowMs: sb.clock.now(), rng: sb.rng })
    return sb.webhooks.publish({ accountId: 1, eventType: 'cash_in', transactionId: `tx-${i}`, payload })[0].id
  }))
  await sb.scheduler.runDue()
  await sb.webhooks.idle()
  const log = new Map((await all(app)).map(d => [d.id, d]))
  t.same(made.map(id => log.get(id)?.status).filter(s => s !== 'delivered'), [], 'every one delivered, none given up')
  t.equal(rx.requests.length, events, 'each received once')
  t.equal(new Set(rx.requests.map(r => r.headers['x-sandbox-delivery-id'])).size, events)
})

t.test('a state with more pending deliveries than the cap is bounded when it is loaded', async t => {
  const app = await buildTestApp(t, { maxPendingDeliveries: 2 })
  const url = await deadUrl()
  await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_in', url } })
  for (let i = 0; i < 2; i++) await emit(app)
  await app.sandbox.webhooks.idle()
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  // Two more pending deliveries, as a sandbox with a higher cap would have saved them.
  let seq = 100
  for (const d of Object.values(snapshot.deliveries) as any[]) {
    const copy = { ...d, id: `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`, seq }
    snapshot.deliveries[copy.id] = copy
  }
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  await app.sandbox.webhooks.idle()
  const log = await all(app)
  t.equal(log.filter(d => d.status === 'pending').length, 2)
  const bySeq = (a: number, b: number) => a - b
  t.same(log.filter(d => d.status === 'failed').map(d => d.seq).sort(bySeq), log.map(d => d.seq).sort(bySeq).slice(0, 2), 'the oldest two were given up')
  t.equal(await jobs(app), 2)
})

t.test('the cap counts the deliveries of every receiver that fails, oldest first across them, and none of one that answers', async t => {
  const app = await buildTestApp(t, { maxPendingDeliveries: 4 })
  const rx = await startReceiver()
  t.teardown(() => rx.close())
  const [a, b] = [await deadUrl(), (await deadUrl()).replace('/dead', '/other')]
  for (const url of [a, b, rx.url]) await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_in', url } })
  const made: Array<Record<string, string>> = []
  for (let i = 0; i < 5; i++) {
    const deliveries = (await emit(app)).json().deliveries as Array<{ id: string, url: string }>
    made.push(Object.fromEntries(deliveries.map(d => [d.url, d.id])))
    await app.sandbox.webhooks.idle()
  }
  const log = new Map((await all(app)).map(d => [d.id, d]))
  const statusAt = (url: string) => made.map(m => log.get(m[url])!.status)
  t.same(statusAt(a), ['failed', 'failed', 'failed', 'pending', 'pending'], 'the first dead receiver keeps its newest two')
  t.same(statusAt(b), ['failed', 'failed', 'failed', 'pending', 'pending'], 'and so does the second: four pending across both')
  t.same(statusAt(rx.url), ['delivered', 'delivered', 'delivered', 'delivered', 'delivered'], 'the receiver that answers got every one')
  t.match(log.get(made[0][a])!.failureReason, /^PENDING_LIMIT/)
})
