import t, { type Test } from 'tap'
import { Clock } from '../../../server/engine/clock.js'
import { Scheduler } from '../../../server/engine/scheduler.js'
import { createRng } from '../../../server/domain/ids.js'
import { chargeData } from '../../../server/services/charge-records.js'
import { nextSplitRun, SplitService } from '../../../server/services/splits.js'
import { Store } from '../../../server/store/store.js'
import type { Mutable, SplitFrequency, SplitRecord, Transaction } from '../../../server/store/state.js'
import { accountRecord } from './harness.js'
import { Lifecycles } from '../../../server/store/lifecycle.js'

// SplitService alone: a memory store, the sandbox clock and scheduler, and a paid cash-in put in the
// store by hand (what the charge service hands it through ChargeSplits).

const T0 = Date.parse('2026-03-10T15:20:00.000Z') // 12:20 in São Paulo
const NEXT_HOUR = Date.parse('2026-03-10T16:00:00.000Z')
const NEXT_MIDNIGHT = Date.parse('2026-03-11T03:00:00.000Z') // 00:00 in São Paulo

function split (cents: number, fields: Partial<SplitRecord> = {}): SplitRecord {
  return { pixKey: 'ana@example.com', pixKeyType: 'EMAIL', name: 'ANA', document: '52998224725', type: 'FIXED', value: cents / 100, immediate: false, amountCents: cents, status: 'WAITING', ...fields }
}

async function splits (t: Test, frequency: SplitFrequency, records: SplitRecord[], availableCents = 10_000) {
  const clock = new Clock(() => T0)
  clock.freeze()
  const store = new Store()
  await store.open()
  const scheduler = new Scheduler({ clock, runJob: run => { store.unit(run) } })
  t.teardown(() => scheduler.close())
  const service = new SplitService({ store, clock, scheduler, rng: createRng('unit') })
  // The harness's account record, with what these tests set differently.
  const account = accountRecord(1, {
    name: 'LOJA',
    bankName: 'B',
    clientId: 'c',
    feeCents: 0,
    splitFrequency: frequency,
    balance: { availableCents, blockedCents: 0 },
    totals: { openingCents: availableCents, adjustmentsCents: 0, settledInCents: 0, settledOutCents: 0, feesCents: 0 },
  })
  const at = new Date(T0).toISOString()
  const charge: Mutable<Transaction> = {
    id: 'charge-1',
    seq: 1,
    accountId: 1,
    kind: 'CASH_IN',
    direction: 'IN',
    status: 'CONFIRMED',
    amountCents: 10_000,
    feeCents: 0,
    errorCode: null,
    errorMessage: null,
    externalId: 'pedido-1',
    createdAt: at,
    updatedAt: at,
    history: [{ status: 'CONFIRMED', at }],
    data: { txid: 'tx1', location: null, pixCode: null, splits: records },
  }
  store.transact(() => {
    store.addAccount(account)
    store.addTransaction(charge)
  })
  const run = () => store.transact(() => service.runSplits(store.transaction('charge-1')!, store.account(1)!))
  const splitsOf = () => chargeData(store.transaction('charge-1')!).splits
  return { service, store, scheduler, run, splitsOf }
}

t.test('nextSplitRun: now, the next full hour, or the next midnight in São Paulo', async t => {
  t.equal(nextSplitRun(T0, 'IMMEDIATE'), T0)
  t.equal(nextSplitRun(T0, 'HOURLY'), NEXT_HOUR)
  t.equal(nextSplitRun(T0, 'DAILY'), NEXT_MIDNIGHT)
})

t.test('an account that splits IMMEDIATE pays every split at once, out of the available balance', async t => {
  const { store, run, splitsOf } = await splits(t, 'IMMEDIATE', [split(1_000), split(2_000, { pixKey: 'bia@example.com' })])
  run()
  t.same(splitsOf().map(s => s.status), ['PAID', 'PAID'])
  t.equal(store.account(1)!.balance.availableCents, 7_000)
  const paid = splitsOf().map(s => store.transaction(s.transactionId!)!)
  t.match(paid, [
    { kind: 'SPLIT', direction: 'OUT', status: 'CONFIRMED', amountCents: 1_000, pixKey: 'ana@example.com', description: 'Split da cobrança pedido-1', data: { chargeId: 'charge-1', splitIndex: 0 } },
    { kind: 'SPLIT', status: 'CONFIRMED', amountCents: 2_000, pixKey: 'bia@example.com', data: { splitIndex: 1 } },
  ])
})

t.test('an HOURLY account schedules its splits for the next full hour; an immediate split goes at once', async t => {
  const { store, scheduler, run, splitsOf } = await splits(t, 'HOURLY', [split(1_000), split(500, { immediate: true })])
  run()
  t.match(splitsOf(), [{ status: 'SCHEDULED', dueAt: new Date(NEXT_HOUR).toISOString() }, { status: 'PAID' }])
  t.equal(store.account(1)!.balance.availableCents, 9_500)
  await scheduler.advance(NEXT_HOUR - T0 - 1)
  t.equal(splitsOf()[0].status, 'SCHEDULED', 'not before its run')
  await scheduler.advance(1)
  t.match(splitsOf()[0], { status: 'PAID', dueAt: undefined })
  t.equal(store.account(1)!.balance.availableCents, 8_500)
})

t.test('a split the balance no longer covers fails, recorded as an ERROR transaction, and nothing is debited', async t => {
  const { store, run, splitsOf } = await splits(t, 'IMMEDIATE', [split(1_000)], 400)
  run()
  t.equal(splitsOf()[0].status, 'FAILED')
  t.match(store.transaction(splitsOf()[0].transactionId!), { kind: 'SPLIT', status: 'ERROR', errorCode: 'PIX_INSUFFICIENT_BALANCE' })
  t.equal(store.account(1)!.balance.availableCents, 400)
})

t.test('a load schedules again the splits still due (a restart, an import); a paid one is never paid twice', async t => {
  const { service, store, scheduler, run, splitsOf } = await splits(t, 'DAILY', [split(1_000)])
  run()
  t.equal(splitsOf()[0].status, 'SCHEDULED')
  // As a restart: the jobs are gone, the records stay.
  scheduler.clear()
  const lifecycle = new Lifecycles([service])
  store.transact(() => lifecycle.load())
  await scheduler.advance(NEXT_MIDNIGHT - T0)
  t.equal(splitsOf()[0].status, 'PAID')
  store.transact(() => lifecycle.load())
  await scheduler.advance(24 * 3_600_000)
  t.equal(store.account(1)!.balance.availableCents, 9_000)
})
