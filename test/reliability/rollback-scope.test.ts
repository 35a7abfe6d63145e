import t from 'tap'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { advance, balanceOf, bearer, buildTestApp, expectInjectedBug, tokenFor } from '../helpers/app.js'
import { cashOutBody } from '../helpers/payouts.js'
import type { Lifecycle } from '../../server/ports.js'
import type { WebhookEvent } from '../../server/webhooks/types.js'
import { examplePayload } from '../helpers/webhooks.js'

/**
 * A failed unit restores only what it touched: its records, sequences and index entries, and what the
 * services keep about those records. Every other scheduled job, every webhook attempt under way and
 * every service's memory stay as they were: no service rebuilds from the whole state, and no
 * scheduler is cleared.
 */

/** Counts the full rebuilds of every service: of what it derives from the records, and its own (`afterLoad`). */
function countRebuilds (app: FastifyInstance): { count: number } {
  const counter = { count: 0 }
  const sb = app.sandbox
  const services: Lifecycle[] = [sb.webhooks, sb.charges, sb.splits, sb.payouts, sb.refunds, sb.med, sb.locations, sb.signer, sb.cobvBatches, sb.recurrences, sb.cobrs]
  const counted = <T extends object>(on: T, name: keyof T & string) => {
    const original = (on[name] as (() => void) | undefined)?.bind(on)
    if (!original) return
    Object.assign(on, {
      [name]: () => {
        counter.count++
        original()
      },
    })
  }
  for (const service of services) {
    counted(service, 'afterLoad')
    for (const derived of service.derived ?? []) counted(derived, 'rebuild')
  }
  return counter
}

t.test('a failed cash-out leaves other jobs and services alone, and takes back its own job, record and daily total', async t => {
  const app = await buildTestApp(t)
  const sb = app.sandbox
  const token = await tokenFor(app)
  const pending = (await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(token), payload: cashOutBody({ value: 30 }) })).json()
  const probe = sb.scheduler.at(sb.clock.now() + 3_600_000, 'probe', () => {})
  const jobs = sb.scheduler.pending()
  const balance = await balanceOf(app, 1)
  const rebuilds = countRebuilds(app)
  const account = sb.store.account(1)!
  t.throws(() => sb.store.transact(() => {
    sb.payouts.createCashOut(account, { value: 40, externalId: 'late-step', details: { key: 'joao.souza@example.com', keyType: 'EMAIL', name: 'Joao Souza', document: '03742693433' } }, [])
    throw new Error('a late step of the operation fails')
  }), { message: /late step/ })
  t.equal(rebuilds.count, 0, 'no service rebuilt from the whole state')
  t.equal(probe.cancelled, false, 'a job nobody touched is still on the scheduler')
  t.equal(sb.scheduler.pending(), jobs, 'and the failed cash-out\'s settlement is not')
  t.same(await balanceOf(app, 1), balance, 'its reservation is back')
  t.equal(sb.store.transactionByExternalId(1, 'cash-out', 'late-step'), undefined)
  await advance(app, 60)
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/transactions/${pending.transactionId}` })).json().status, 'CONFIRMED', 'the other pay-out settled on time')
})

t.test('a settlement whose unit fails is due again a second later: the pay-out settles once the fault is gone', async t => {
  const app = await buildTestApp(t)
  const sb = app.sandbox
  const token = await tokenFor(app)
  const { transactionId } = (await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(token), payload: cashOutBody({ value: 30 }) })).json()
  const probe = sb.scheduler.at(sb.clock.now() + 3_600_000, 'probe', () => {})
  const rebuilds = countRebuilds(app)
  expectInjectedBug(app)
  const webhooks = sb.webhooks
  const emit = webhooks.emit.bind(webhooks)
  let failures = 0
  webhooks.emit = (event: WebhookEvent) => {
    if (event.eventType === 'cash_out' && failures++ === 0) throw new Error('injected failure while emitting cash_out')
    emit(event)
  }
  await advance(app, 60)
  t.equal(failures, 1, 'the settlement failed')
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/transactions/${transactionId}` })).json().status, 'PENDING', 'and waits')
  await advance(app, 1000)
  t.equal(failures, 2, 'a second later it went through')
  const tx = (await app.inject({ method: 'GET', url: `/__sandbox/transactions/${transactionId}` })).json()
  t.equal(tx.status, 'CONFIRMED', 'settled once')
  t.equal(tx.history.filter((h: { status: string }) => h.status === 'CONFIRMED').length, 1)
  t.ok((await balanceOf(app, 1)).invariantHolds)
  t.equal(rebuilds.count, 0)
  t.equal(probe.cancelled, false)
})

t.test('a webhook attempt under way is not cancelled by a failed unit elsewhere', async t => {
  const held: ServerResponse[] = []
  let requests = 0
  let arrived!: () => void
  const first = new Promise<void>(resolve => { arrived = resolve })
  const receiver = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      requests++
      if (requests === 1) {
        held.push(res)
        arrived()
      } else {
        res.end('ok')
      }
    })
  })
  await new Promise<void>(resolve => receiver.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>(resolve => { receiver.closeAllConnections(); receiver.close(() => resolve()) }))
  const app = await buildTestApp(t)
  const sb = app.sandbox
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_out', url } })).statusCode, 201)
  const name = sb.store.account(1)!.name
  const [delivery] = sb.webhooks.publish({ accountId: 1, eventType: 'cash_out', transactionId: 'tx-1', payload: examplePayload('cash_out', 'tx-1') })
  await first
  t.throws(() => sb.store.transact(() => {
    sb.store.update('accounts', 1, a => { a.name = 'RENAMED' })
    throw new Error('an unrelated unit fails')
  }))
  held[0].end('ok')
  await sb.webhooks.idle()
  const after = sb.webhooks.delivery(delivery.id)!
  t.equal(after.status, 'delivered', 'the attempt that was out was recorded')
  t.equal(after.attempts.length, 1)
  t.equal(requests, 1, 'and not made a second time')
  t.equal(sb.store.account(1)!.name, name, 'the failed unit\'s change is gone')
})

t.test('a settlement that fails every time does not hold the sandbox: it waits longer after each failure, and settles once the fault is gone', async t => {
  const app = await buildTestApp(t)
  const sb = app.sandbox
  const token = await tokenFor(app)
  const { transactionId } = (await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(token), payload: cashOutBody({ value: 30 }) })).json()
  expectInjectedBug(app)
  const webhooks = sb.webhooks
  const emit = webhooks.emit.bind(webhooks)
  let failures = 0
  let broken = true
  webhooks.emit = (event: WebhookEvent) => {
    // Bounded, so that a sandbox that retries at once ends this test instead of spinning forever.
    if (event.eventType === 'cash_out' && broken && failures++ < 10_000) throw new Error('a bug in the settlement')
    emit(event)
  }
  await advance(app, 60 * 60_000)
  t.ok(failures > 2 && failures < 20, `an hour of the sandbox clock: ${failures} attempts, each after a longer wait`)
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/transactions/${transactionId}` })).json().status, 'PENDING')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/health' })).statusCode, 200, 'the sandbox answers')
  broken = false
  await advance(app, 2 * 60 * 60_000)
  const tx = (await app.inject({ method: 'GET', url: `/__sandbox/transactions/${transactionId}` })).json()
  t.equal(tx.status, 'CONFIRMED', 'settled once the fault is gone')
  t.equal(tx.history.filter((h: { status: string }) => h.status === 'CONFIRMED').length, 1)
  t.ok((await balanceOf(app, 1)).invariantHolds)
})
