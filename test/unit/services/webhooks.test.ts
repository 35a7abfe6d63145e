import t, { type Test } from 'tap'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { defaultConfig } from '../../../server/config.js'
import { emptyState } from '../../../server/store/state.js'
import { signDelivery } from '../../../server/webhooks/signature.js'
import { WebhookService } from '../../../server/webhooks/service.js'
import type { Resolve } from '../../../server/webhooks/own-address.js'
import { GATEWAY_EVENT_TYPES, type FailedAttempt, type GaveUp } from '../../../server/webhooks/types.js'
import { addAccount, engine } from './harness.js'
import { examplePayload } from '../../helpers/webhooks.js'
import { Lifecycles } from '../../../server/store/lifecycle.js'

// WebhookService alone: a memory store, the frozen sandbox clock and its scheduler, and a real receiver
// on 127.0.0.1 whose answer each test chooses. Retries wait for sandbox time: nothing is retried until
// the test advances the scheduler past the backoff.

const BACKOFF = 1_000
const SECRET = 'unit-webhook-secret'

interface Received { headers: IncomingHttpHeaders, body: string }

async function receiver (t: Test) {
  const received: Received[] = []
  let status = 200
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', c => { body += c })
    req.on('end', () => {
      received.push({ headers: req.headers, body })
      res.statusCode = status
      res.end('ok')
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>(resolve => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, answer: (s: number) => { status = s } }
}

async function webhooks (t: Test, more: Partial<ReturnType<typeof defaultConfig>> = {}, resolve?: Resolve, resolveTimeoutMs?: number) {
  const e = await engine(t)
  addAccount(e.store, 1)
  addAccount(e.store, 2)
  const failed: FailedAttempt[] = []
  const gaveUp: GaveUp[] = []
  const config = defaultConfig({ webhookSecret: SECRET, webhookBackoffMs: BACKOFF, webhookMaxAttempts: 3, webhookTimeoutMs: 2_000, port: 1, ...more })
  const service = new WebhookService({ ...e, config, version: '9.9.9' }, { onAttemptFailed: a => failed.push(a), onGaveUp: g => gaveUp.push(g), onError: err => t.fail(String(err)), ...(resolve ? { resolve } : {}), ...(resolveTimeoutMs !== undefined ? { resolveTimeoutMs } : {}) })
  t.teardown(() => service.close())
  const register = async (url: string, accountId = 1) => (await service.registrations.register({ accountId, eventType: 'cash_out', url }, { httpsOnly: false })).webhook
  const emit = (accountId = 1, scenarios: Array<{ name: string, params: Record<string, string> }> = []) =>
    service.publish({ accountId, eventType: 'cash_out', transactionId: 'tx-1', payload: examplePayload('cash_out'), scenarios })
  return { ...e, service, failed, gaveUp, register, emit }
}

t.test('an event with no registration is recorded as no_receiver, and cannot be redelivered', async t => {
  const { service, emit } = await webhooks(t)
  const [d] = emit()
  t.match(d, { status: 'no_receiver', url: null, webhookId: null, accountId: 1, eventType: 'cash_out', transactionId: 'tx-1', attempts: [] })
  t.same(service.deliveries({ accountId: 1 }).map(x => x.id), [d.id], 'the event shows in the log all the same')
  t.throws(() => service.redeliver(d.id), { code: 'NO_RECEIVER' })
  t.throws(() => service.redeliver('nope'), { code: 'DELIVERY_NOT_FOUND' })
})

t.test('an event goes to the registered receiver at once, signed, and the delivery records the attempt', async t => {
  const r = await receiver(t)
  const { service, emit, register, clock } = await webhooks(t)
  const hook = await register(r.url)
  const [d] = emit()
  t.equal(d.status, 'pending')
  t.equal(d.webhookId, hook.id)
  await service.idle()
  t.equal(r.received.length, 1)
  const { headers, body } = r.received[0]
  t.same(JSON.parse(body), examplePayload('cash_out'))
  t.equal(headers['x-sandbox-delivery-id'], d.id)
  t.equal(headers['x-sandbox-event-type'], 'cash_out')
  t.equal(headers['user-agent'], 'pix-sandbox/9.9.9')
  const timestamp = Number(headers['x-sandbox-timestamp'])
  t.equal(timestamp, Math.floor(clock.now() / 1000), 'stamped with sandbox time')
  t.equal(headers['x-sandbox-signature'], signDelivery(SECRET, timestamp, body), 'a receiver can verify it with the shared secret')
  const after = service.delivery(d.id)!
  t.equal(after.status, 'delivered')
  t.match(after.attempts, [{ kind: 'first', statusCode: 200, error: null, responseBody: 'ok' }])
  t.equal(after.nextAttemptAt, null)
})

t.test('a failing receiver is retried on the sandbox clock with a doubling backoff, then given up', async t => {
  const r = await receiver(t)
  const { service, emit, register, scheduler, failed, gaveUp } = await webhooks(t)
  r.answer(500)
  await register(r.url)
  const [d] = emit()
  await service.idle()
  t.equal(r.received.length, 1)
  t.equal(service.delivery(d.id)!.status, 'pending')
  t.match(failed, [{ deliveryId: d.id, attempt: 1, maxAttempts: 3, error: 'HTTP 500' }])
  await scheduler.advance(BACKOFF - 1)
  await service.idle()
  t.equal(r.received.length, 1, 'no retry before the backoff has passed in sandbox time')
  await scheduler.advance(1)
  await service.idle()
  t.equal(r.received.length, 2, 'the first retry after 1 s')
  await scheduler.advance(2 * BACKOFF - 1)
  await service.idle()
  t.equal(r.received.length, 2)
  await scheduler.advance(1)
  await service.idle()
  t.equal(r.received.length, 3, 'the second after 2 s more')
  const final = service.delivery(d.id)!
  t.equal(final.status, 'failed')
  t.same(final.attempts.map(a => a.kind), ['first', 'retry', 'retry'])
  t.match(gaveUp, [{ deliveryId: d.id, attempts: 3, reason: 'HTTP 500' }])
  await scheduler.advance(60_000)
  await service.idle()
  t.equal(r.received.length, 3, 'nothing after it gave up')
  t.equal(failed.at(-1)!.retryAt, null)
})

t.test('a retry that succeeds ends the delivery; a redelivery sends it again whatever its status', async t => {
  const r = await receiver(t)
  const { service, emit, register, scheduler } = await webhooks(t)
  r.answer(503)
  await register(r.url)
  const [d] = emit()
  await service.idle()
  r.answer(204)
  await scheduler.advance(BACKOFF)
  await service.idle()
  t.equal(service.delivery(d.id)!.status, 'delivered')
  service.redeliver(d.id)
  await service.idle()
  t.equal(r.received.length, 3)
  t.same(service.delivery(d.id)!.attempts.map(a => a.kind), ['first', 'retry', 'redeliver'])
  t.equal(r.received[2].headers['x-sandbox-delivery-id'], d.id, 'the same delivery id, so a receiver can de-duplicate')
})

t.test('WEBHOOK_DROP records the event as dropped and sends nothing', async t => {
  const r = await receiver(t)
  const { service, emit, register } = await webhooks(t)
  await register(r.url)
  const [d] = emit(1, [{ name: 'WEBHOOK_DROP', params: {} }, { name: 'SETTLEMENT_DELAY', params: { ms: '1' } }])
  await service.idle()
  t.equal(d.status, 'dropped')
  t.same(d.scenarios, ['WEBHOOK_DROP'], 'only the delivery faults are kept on the delivery')
  t.equal(r.received.length, 0)
})

t.test('a receiver URL that reaches the sandbox itself is refused', async t => {
  const { service } = await webhooks(t, { host: '127.0.0.1', port: 8765 })
  await t.rejects(service.registrations.register({ accountId: 1, eventType: 'cash_out', url: 'http://localhost:8765/__sandbox/reset' }, { httpsOnly: false }), { code: 'WEBHOOK_URL_IS_SANDBOX' })
  t.same(service.registrations.list(1), [])
})

t.test('a name that resolves to the sandbox is refused, whatever the name; one that does not resolve (or not in time) is accepted', async t => {
  const names: Record<string, string[]> = {
    'erp.test': ['192.0.2.10'],
    'shop.test': ['127.0.0.1'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'both.test': ['192.0.2.10', '127.0.0.2'],
    'six.test': ['::1'],
  }
  const asked: string[] = []
  const resolve: Resolve = async host => {
    asked.push(host)
    if (host === 'slow.test') return await new Promise<never>(() => {})
    const found = names[host]
    if (found === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
    return found.map(address => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  const { service } = await webhooks(t, { host: '127.0.0.1', port: 8765 }, resolve)
  for (const name of ['shop.test', 'mapped.test', 'both.test', 'six.test']) {
    await t.rejects(service.registrations.register({ accountId: 1, eventType: 'cash_out', url: `http://${name}:8765/__sandbox/reset` }, { httpsOnly: false }), { code: 'WEBHOOK_URL_IS_SANDBOX' }, name)
    await t.rejects(service.checkReceiver(`http://${name}:8765/`), { code: 'WEBHOOK_URL_IS_SANDBOX' }, `${name}: a webhook of API Pix`)
  }
  t.same(service.registrations.list(1), [])
  for (const [i, url] of ['http://erp.test:8765/x', 'http://shop.test:8766/x', 'http://nowhere.test:8765/x'].entries()) {
    const eventType = (['cash_out', 'cash_in', 'refund_in'] as const)[i]
    t.equal((await service.registrations.register({ accountId: 1, eventType, url }, { httpsOnly: false })).created, true, `${url} is another receiver, or none yet`)
  }
  asked.length = 0
  await service.registrations.register({ accountId: 1, eventType: 'refund_out', url: 'http://127.0.0.1:9000/x' }, { httpsOnly: false })
  t.same(asked, [], 'an address needs no lookup')
  const { service: patient } = await webhooks(t, { host: '127.0.0.1', port: 8765 }, resolve, 20)
  t.equal((await patient.registrations.register({ accountId: 1, eventType: 'cash_out', url: 'http://slow.test:8765/x' }, { httpsOnly: false })).created, true, 'a lookup that does not answer in time gives way (each attempt resolves again)')
  const { service: allowed } = await webhooks(t, { host: '127.0.0.1', port: 8765, selfWebhooks: 'enabled' }, resolve)
  t.equal((await allowed.registrations.register({ accountId: 1, eventType: 'cash_out', url: 'http://shop.test:8765/x' }, { httpsOnly: false })).created, true, 'SANDBOX_SELF_WEBHOOKS=enabled allows it')
})

t.test('waitFor answers the newest matching delivery as soon as it exists, or null after its timeout', async t => {
  const { service, emit } = await webhooks(t)
  const waiting = service.waitFor({ accountId: 2 }, 5_000)
  const [d] = emit(2)
  t.equal((await waiting)?.id, d.id)
  t.equal(await service.waitFor({ accountId: 1, eventType: 'cash_in' }, 10), null)
})

t.test('afterLoad schedules again the pending deliveries the scheduler lost (a restart, an import)', async t => {
  const r = await receiver(t)
  const { service, emit, register, scheduler, store } = await webhooks(t)
  r.answer(500)
  await register(r.url)
  const [d] = emit()
  await service.idle()
  scheduler.clear()
  r.answer(200)
  await scheduler.advance(BACKOFF)
  await service.idle()
  t.equal(r.received.length, 1, 'its retry job is gone')
  store.transact(() => service.afterLoad())
  await scheduler.runDue()
  await service.idle()
  t.equal(r.received.length, 2, 'its retry was due: made at once')
  t.equal(service.delivery(d.id)!.status, 'delivered')
})

t.test('afterReset forgets what was pending and registers SANDBOX_WEBHOOK_URL again for the default account', async t => {
  const r = await receiver(t)
  const { service, emit, register, scheduler, store } = await webhooks(t, { webhookUrl: 'http://127.0.0.1:9/all' })
  r.answer(500)
  await register(r.url)
  emit()
  await service.idle()
  // What a full reset does around the service: the scheduler and the store start over, the fixtures come back.
  store.transact(() => {
    scheduler.clear()
    store.replace(emptyState())
    addAccount(store, 1)
    service.afterReset()
  })
  t.same(service.deliveries({}), [])
  t.same(service.registrations.list(1).map(w => [w.eventType, w.url]), GATEWAY_EVENT_TYPES.map(e => [e, 'http://127.0.0.1:9/all']))
  await scheduler.advance(10 * BACKOFF)
  await service.idle()
  t.equal(r.received.length, 1, 'no retry of a delivery of the state that is gone')
})

t.test('an account\'s removal removes its registrations and deliveries, and cancels its retries', async t => {
  const r = await receiver(t)
  const { service, emit, register, scheduler, store } = await webhooks(t)
  const lifecycle = new Lifecycles([service])
  store.onAccountRemoved((id, removed) => lifecycle.accountRemoved(id, removed))
  r.answer(500)
  await register(r.url, 1)
  await register(r.url, 2)
  emit(1)
  emit(2)
  await service.idle()
  store.transact(() => store.removeAccount(1))
  t.same(service.registrations.list(1), [])
  t.same(service.deliveries({ accountId: 1 }), [])
  t.equal(service.deliveries({ accountId: 2 }).length, 1)
  await scheduler.advance(BACKOFF)
  await service.idle()
  t.equal(r.received.length, 3, 'two first attempts, then only account 2\'s retry')
  t.equal(service.deliveries({ accountId: 2 })[0].attempts.length, 2)
})
