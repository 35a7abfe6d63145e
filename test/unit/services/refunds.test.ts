import t, { type Test } from 'tap'
import { invariantHolds } from '../../../server/domain/ledger.js'
import type { ReceivedPayments } from '../../../server/ports.js'
import { REFUND_DEADLINE_DAYS, RefundService, refundData } from '../../../server/services/refunds.js'
import { addAccount, addPayout, addReceived, DAY_MS, engine } from './harness.js'
import { devolucaoView, devolucoesOf } from '../../../server/dialects/shared/bacen.js'
import { refundInView } from '../../../server/dialects/gateway/views.js'
import { Lifecycles } from '../../../server/store/lifecycle.js'
import { ExpiringRefs } from '../../../server/services/expiring-refs.js'

// RefundService alone: a memory store, the clock and scheduler, the events it emits recorded, and a
// fake for what it asks of its neighbours (the received payment a refund names). Account 1 starts
// with R$ 5.000,00 and receives a PIX of R$ 100,00.

const DELAY = 50

async function refunds (t: Test) {
  const e = await engine(t)
  addAccount(e.store, 1)
  addAccount(e.store, 2)
  const original = addReceived(e.store, { accountId: 1, amountCents: 10_000 })
  const lookups: string[] = []
  const received: ReceivedPayments = { findReceived: id => { lookups.push(id); return e.store.transaction(id) ?? e.store.transactionByRef(`e2e-in:${id}`) } }
  const service = new RefundService({ ...e, config: { settlementDelayMs: DELAY }, received, expiringRefs: new ExpiringRefs(e), stages: { follow: () => {} } })
  const balance = () => e.store.account(1)!.balance
  return { ...e, service, original, lookups, balance }
}

t.test('refund-in reserves at once, settles on the scheduler and emits refund_in with the original payment', async t => {
  const { service, store, scheduler, emitted, original, lookups, balance } = await refunds(t)
  const available = balance().availableCents
  const tx = service.refundIn(store.account(1)!, original.endToEndId!, { refundValue: 30, reason: 'produto devolvido', externalId: 'r-1' }, [])
  t.same(lookups, [original.endToEndId], 'the received payment is asked of the neighbour')
  t.equal(tx.status, 'PENDING')
  t.same(balance(), { availableCents: available - 3_000, blockedCents: 3_000 })
  t.same(emitted, [], 'nothing is reported before it settles')
  await scheduler.advance(DELAY)
  const settled = store.transaction(tx.id)!
  t.equal(settled.status, 'CONFIRMED')
  t.same(balance(), { availableCents: available - 3_000, blockedCents: 0 })
  t.equal(store.account(1)!.totals.settledOutCents, 3_000)
  t.ok(invariantHolds(store.account(1)!))
  t.equal(emitted.length, 1)
  t.equal(emitted[0].eventType, 'refund_in')
  t.equal(emitted[0].transactionId, tx.id)
  t.match(JSON.stringify(emitted[0].payload), original.endToEndId!, 'the webhook names the refunded payment')
  t.same(refundInView(settled), { transactionId: tx.id, externalId: 'r-1', status: 'CONFIRMED', refundValue: 30, providerTransactionId: refundData(settled).rtrId, generateTime: settled.createdAt })
})

t.test('what is left to refund: refunds add up to the original amount, and a failed one gives its share back', async t => {
  const { service, store, original } = await refunds(t)
  const account = () => store.account(1)!
  service.refundIn(account(), original.id, { refundValue: 60 }, [])
  t.equal(service.remainingCents(original), 4_000)
  t.throws(() => service.refundIn(account(), original.id, { refundValue: 40.01 }, []), {
    code: 'REFUND_AMOUNT_EXCEEDS_ORIGINAL',
    details: { refundValue: 40.01, remaining: 40 },
  })
  const last = service.refundIn(account(), original.id, { refundValue: 40 }, [])
  t.equal(service.remainingCents(original), 0)
  t.equal(service.failNow(last), true)
  t.equal(service.remainingCents(original), 4_000, 'a failed refund no longer counts')
  t.equal(service.refundsOf(original).length, 2)
})

t.test('refund-in refusals change nothing', async t => {
  const { service, store, original, clock, balance } = await refunds(t)
  const payout = addPayout(store, { accountId: 1, amountCents: 100 })
  const before = structuredClone(balance())
  t.throws(() => service.refundIn(store.account(2)!, original.id, { refundValue: 1 }, []), { code: 'TRANSACTION_NOT_FOUND' }, 'another account\'s payment')
  t.throws(() => service.refundIn(store.account(1)!, 'nothing', { refundValue: 1 }, []), { code: 'TRANSACTION_NOT_FOUND' })
  t.throws(() => service.refundIn(store.account(1)!, payout.id, { refundValue: 1 }, []), { code: 'REFUND_NOT_ALLOWED' }, 'a pay-out is no received payment')
  t.throws(() => service.refundIn(store.account(1)!, original.id, { refundValue: 0 }, []), { code: 'PIX_INVALID_AMOUNT' })
  clock.set(Date.parse(original.createdAt) + REFUND_DEADLINE_DAYS * DAY_MS + 1)
  t.throws(() => service.refundIn(store.account(1)!, original.id, { refundValue: 1 }, []), { code: 'REFUND_DEADLINE_EXCEEDED' }, `past ${REFUND_DEADLINE_DAYS} days`)
  t.same(balance(), before)
  t.same(service.refundsOf(original), [])
  clock.set(Date.parse(original.createdAt) + REFUND_DEADLINE_DAYS * DAY_MS)
  service.refundIn(store.account(1)!, original.id, { refundValue: 1, externalId: 'dup' }, [])
  t.throws(() => service.refundIn(store.account(1)!, original.id, { refundValue: 1, externalId: 'dup' }, []), { code: 'PIX_DUPLICATE_EXTERNAL_ID', details: { externalId: 'dup' } })
  t.equal(service.refundsOf(original).length, 1, 'on the last day a refund is still accepted, once per externalId')
  t.equal(balance().blockedCents, 100)
})

t.test('a refund the available balance does not cover is refused', async t => {
  const { service, store, original } = await refunds(t)
  store.transact(() => store.ledger(1, a => { a.balance.availableCents = 2_000; a.totals.adjustmentsCents -= 508_000 }))
  t.throws(() => service.refundIn(store.account(1)!, original.id, { refundValue: 20.01 }, []), { code: 'PIX_INSUFFICIENT_BALANCE' })
  t.throws(() => service.devolucao(store.account(1)!, original.endToEndId!, 'd1', { valor: '20.01' }, []), { code: 'PIX_INSUFFICIENT_BALANCE' })
  t.same(store.account(1)!.balance, { availableCents: 2_000, blockedCents: 0 })
})

t.test('REFUND_FAILED: at its due time the refund fails, the reservation comes back, the webhook says why', async t => {
  const { service, store, scheduler, emitted, original, balance } = await refunds(t)
  const available = balance().availableCents
  const tx = service.refundIn(store.account(1)!, original.id, { refundValue: 10 }, [{ name: 'REFUND_FAILED', params: {} }])
  await scheduler.advance(DELAY)
  const failed = store.transaction(tx.id)!
  t.equal(failed.status, 'ERROR')
  t.equal(failed.errorCode, 'REFUND_FAILED')
  t.same(balance(), { availableCents: available, blockedCents: 0 })
  t.equal(emitted.length, 1)
  t.match(JSON.stringify(emitted[0].payload), 'REFUND_FAILED')
  t.same(emitted[0].scenarios, [{ name: 'REFUND_FAILED', params: {} }], 'the scenarios travel with the event')
})

t.test('REFUND_DELAY settles later than the configured delay', async t => {
  const { service, store, scheduler, original } = await refunds(t)
  const tx = service.refundIn(store.account(1)!, original.id, { refundValue: 10 }, [{ name: 'REFUND_DELAY', params: { ms: '5000' } }])
  await scheduler.advance(4_999)
  t.equal(store.transaction(tx.id)!.status, 'PENDING')
  await scheduler.advance(1)
  t.equal(store.transaction(tx.id)!.status, 'CONFIRMED')
})

t.test('pendingOperations: settle and fail a pending refund now, and nothing else', async t => {
  const { service, store, emitted, original, balance } = await refunds(t)
  const available = balance().availableCents
  const a = service.refundIn(store.account(1)!, original.id, { refundValue: 10 }, [])
  const b = service.devolucao(store.account(1)!, original.endToEndId!, 'dev-1', { valor: '5.00' }, [])
  const ops = service.pendingOperations
  t.same([...ops.kinds].sort(), ['DEVOLUCAO', 'REFUND_IN'])
  t.ok(ops.isPending(a))
  t.notOk(ops.isPending(original), 'a received payment is not a refund')
  ops.settle(a)
  ops.fail(b, 'ACCOUNT_CLOSED')
  t.equal(store.transaction(a.id)!.status, 'CONFIRMED')
  const failed = store.transaction(b.id)!
  t.equal(failed.status, 'NAO_REALIZADO')
  t.equal(failed.errorCode, 'ACCOUNT_CLOSED')
  t.equal(devolucaoView(failed).motivo, 'Devolução não realizada (ACCOUNT_CLOSED)')
  t.same(balance(), { availableCents: available - 1_000, blockedCents: 0 })
  t.notOk(ops.isPending(store.transaction(a.id)!))
  t.equal(service.settleNow(store.transaction(a.id)!), false, 'a settled refund is not settled twice')
  t.equal(service.failNow(store.transaction(a.id)!), false)
  t.equal(emitted.length, 2)
})

t.test('devolução: the central bank\'s view, its id unique per payment, found again by e2eid and id', async t => {
  const { service, store, scheduler, original } = await refunds(t)
  const e2e = original.endToEndId!
  const tx = service.devolucao(store.account(1)!, e2e, 'dev-1', { valor: '12.34', descricao: 'troca' }, [])
  t.match(devolucaoView(tx), { id: 'dev-1', valor: '12.34', natureza: 'ORIGINAL', descricao: 'troca', status: 'EM_PROCESSAMENTO', horario: { solicitacao: tx.createdAt } })
  t.throws(() => service.devolucao(store.account(1)!, e2e, 'dev-1', { valor: '1.00' }, []), { code: 'DEVOLUCAO_ID_EXISTS' })
  t.throws(() => service.devolucao(store.account(1)!, e2e, 'dev-2', { valor: '1.0' }, []), /valor/, 'two decimals exactly')
  t.throws(() => service.devolucao(store.account(1)!, e2e, 'dev-2', { valor: '87.67' }, []), { code: 'REFUND_AMOUNT_EXCEEDS_ORIGINAL' })
  t.throws(() => service.devolucao(store.account(1)!, original.id, 'dev-2', { valor: '1.00' }, []), { code: 'NOT_FOUND' }, 'by endToEndId only')
  t.throws(() => service.devolucao(store.account(2)!, e2e, 'dev-2', { valor: '1.00' }, []), { code: 'NOT_FOUND' })
  t.equal(service.devolucaoOf(store.account(1)!, e2e, 'dev-1').id, tx.id)
  t.throws(() => service.devolucaoOf(store.account(2)!, e2e, 'dev-1'), { code: 'NOT_FOUND' }, 'not another account\'s')
  await scheduler.advance(DELAY)
  const view = devolucaoView(store.transaction(tx.id)!)
  t.equal(view.status, 'DEVOLVIDO')
  t.ok(view.horario.liquidacao)
  t.same(devolucoesOf(service, original).map(d => d.id), ['dev-1'])
})

t.test('medReturn: what is left of the payment leaves at once; NAO_REALIZADO when the balance does not cover it', async t => {
  const { service, store, original } = await refunds(t)
  service.refundIn(store.account(1)!, original.id, { refundValue: 30 }, [])
  const ret = service.medReturn(original, 'MED_FRAUDE', 'MED 1')!
  t.equal(ret.amountCents, 7_000, 'the rest after the refund')
  t.equal(devolucaoView(ret).status, 'DEVOLVIDO')
  t.equal(devolucaoView(ret).natureza, 'MED_FRAUDE')
  t.equal(store.account(1)!.balance.blockedCents, 3_000, 'debited directly, not reserved (only the refund-in is blocked)')
  t.equal(service.medReturn(original, 'MED_FRAUDE', 'again'), null, 'nothing left')

  const poor = addReceived(store, { accountId: 2, amountCents: 1_000 })
  store.transact(() => store.ledger(2, a => { a.balance.availableCents = 500; a.totals.adjustmentsCents -= 500_500 }))
  const short = service.medReturn(poor, 'MED_OPERACIONAL', 'MED 2')!
  t.equal(short.status, 'NAO_REALIZADO')
  t.equal(short.errorCode, 'PIX_INSUFFICIENT_BALANCE')
  t.equal(store.account(2)!.balance.availableCents, 500, 'nothing debited')
  t.ok(invariantHolds(store.account(2)!))
})

t.test('receiveReturn: the destination bank returns part of a pay-out, credited at once with refund_out', async t => {
  const { service, store, emitted } = await refunds(t)
  const payout = addPayout(store, { accountId: 1, amountCents: 5_000 })
  const available = store.account(1)!.balance.availableCents
  const tx = service.receiveReturn(payout, { amount: 20, reason: 'conta encerrada' }, [])
  t.equal(tx.kind, 'REFUND_RECEIVED')
  t.equal(tx.status, 'CONFIRMED')
  t.equal(store.account(1)!.balance.availableCents, available + 2_000)
  t.same(emitted.map(e => [e.eventType, e.transactionId]), [['refund_out', tx.id]])
  t.throws(() => service.receiveReturn(payout, { amount: 30.01 }, []), { code: 'REFUND_AMOUNT_EXCEEDS_ORIGINAL', details: { remaining: 30 } })
  const rest = service.receiveReturn(payout, {}, [])
  t.equal(rest.amountCents, 3_000, 'without an amount, all that is left')
  t.throws(() => service.receiveReturn(store.transaction(tx.id)!, {}, []), { code: 'REFUND_NOT_ALLOWED' }, 'only a liquidated pay-out')
})

t.test('lifecycle: a load reschedules a pending settlement the scheduler lost', async t => {
  const { service, store, scheduler, original } = await refunds(t)
  const tx = service.refundIn(store.account(1)!, original.id, { refundValue: 10 }, [])
  scheduler.clear() // what a restart, an import or a rollback leaves: the records, no jobs
  await scheduler.advance(DELAY)
  t.equal(store.transaction(tx.id)!.status, 'PENDING', 'no job, no settlement')
  store.transact(() => new Lifecycles([service]).load())
  await scheduler.runDue()
  t.equal(store.transaction(tx.id)!.status, 'CONFIRMED', 'its due time had passed: settled at once')
})
