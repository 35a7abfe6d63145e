import t, { type Test } from 'tap'
import { Clock } from '../../../server/engine/clock.js'
import { Scheduler } from '../../../server/engine/scheduler.js'
import { createRng } from '../../../server/domain/ids.js'
import { loadFixtures } from '../../../server/fixtures.js'
import type { ChargePayments } from '../../../server/ports.js'
import type { DomainEvents } from '../../../server/events.js'
import { GatewayNotifier } from '../../../server/dialects/gateway/notifier.js'
import { DirectoryService } from '../../../server/services/directory.js'
import { PayoutService } from '../../../server/services/payouts.js'
import { Store } from '../../../server/store/store.js'
import type { WebhookEvent } from '../../../server/webhooks/types.js'
import { accountRecord } from './harness.js'
import { Lifecycles } from '../../../server/store/lifecycle.js'

// PayoutService alone: a memory store, the sandbox clock and scheduler, and fakes for its neighbours
// (charges it never reaches here, and the events it emits, recorded as the gateway's notifier makes
// webhooks of them).

const T0 = Date.parse('2026-03-10T15:00:00.000Z') // 12:00 in São Paulo

async function payouts (t: Test) {
  const clock = new Clock(() => T0)
  clock.freeze()
  const store = new Store()
  await store.open()
  const scheduler = new Scheduler({ clock, runJob: run => { store.unit(run) } })
  t.teardown(() => scheduler.close())
  const emitted: WebhookEvent[] = []
  const notifier = new GatewayNotifier({ store, clock, webhooks: { emit: e => { emitted.push(e) } } })
  const events: DomainEvents = { emit: e => notifier.notify(e) }
  const charges: ChargePayments = {
    chargeForCode: () => undefined,
    arrive: () => { throw new Error('no charge is paid in these tests') },
  }
  const rng = createRng('unit')
  const directory = new DirectoryService({ store, rng }).holders
  const service = new PayoutService({ store, clock, scheduler, rng, fixtures: loadFixtures(), events, config: { settlementDelayMs: 50, alphanumericCnpj: 'disabled' }, charges, directory })
  // The harness's account record, with what these tests set differently.
  const account = accountRecord(1, {
    name: 'LOJA',
    bankName: 'B',
    clientId: 'c',
  })
  store.transact(() => store.addAccount(account))
  const cashOut = (value: number, externalId: string) => service.createCashOut(store.account(1)!, {
    value, externalId, details: { key: 'joao@example.com', keyType: 'EMAIL', name: 'JOAO', document: '52998224725' },
  }, [])
  return { service, store, scheduler, clock, emitted, cashOut }
}

t.test('a cash-out reserves value + fee, settles on the scheduler and emits cash_out', async t => {
  const { store, scheduler, emitted, cashOut } = await payouts(t)
  const tx = cashOut(100, 'e1')
  t.equal(tx.status, 'PENDING')
  t.same(store.account(1)!.balance, { availableCents: 500_000 - 10_010, blockedCents: 10_010 })
  await scheduler.advance(50)
  t.equal(store.transaction(tx.id)!.status, 'CONFIRMED')
  t.same(store.account(1)!.balance, { availableCents: 500_000 - 10_010, blockedCents: 0 })
  t.same(emitted.map(e => [e.eventType, e.transactionId]), [['cash_out', tx.id]])
})

t.test('the daily limit counts the day in São Paulo, rebuilt by a load and dropped by a reset', async t => {
  const { service, store, cashOut } = await payouts(t)
  const lifecycle = new Lifecycles([service])
  cashOut(1000, 'a')
  t.throws(() => cashOut(600, 'b'), { code: 'PIX_DAILY_LIMIT_EXCEEDED' })
  store.transact(() => lifecycle.load())
  t.throws(() => cashOut(600, 'c'), { code: 'PIX_DAILY_LIMIT_EXCEEDED' }, 'the running total comes back from the records')
  lifecycle.reset()
  t.doesNotThrow(() => cashOut(600, 'd'), 'a reset forgets it')
})

t.test('after a rollback the daily total and the settlements follow the pay-outs put back, and nothing else', async t => {
  const { service, store, scheduler, cashOut } = await payouts(t)
  const lifecycle = new Lifecycles([service])
  store.onRestored(restored => lifecycle.restored(restored))
  const kept = cashOut(100, 'kept')
  const jobs = scheduler.pending()
  t.throws(() => store.transact(() => {
    cashOut(1000, 'rolled-back')
    throw new Error('a late step fails')
  }))
  t.equal(scheduler.pending(), jobs, 'the rolled-back pay-out\'s settlement is gone, the other one is still due')
  t.doesNotThrow(() => cashOut(1000, 'fits'), 'the rolled-back amount no longer counts towards the day')
  t.throws(() => cashOut(600, 'over'), { code: 'PIX_DAILY_LIMIT_EXCEEDED' }, 'what stands still does')
  await scheduler.advance(50)
  t.equal(store.transaction(kept.id)!.status, 'CONFIRMED')
})

t.test('pendingOperations fail a pending pay-out with an asynchronous error and release the reservation', async t => {
  const { service, store, emitted, cashOut } = await payouts(t)
  const tx = cashOut(100, 'e1')
  t.ok(service.pendingOperations.isPending(tx))
  service.pendingOperations.fail(tx, 'ORDER_REJECTED')
  const failed = store.transaction(tx.id)!
  t.equal(failed.status, 'ERROR')
  t.equal(failed.errorCode, 'ORDER_REJECTED')
  t.same(store.account(1)!.balance, { availableCents: 500_000, blockedCents: 0 })
  t.equal(emitted.length, 1)
})
