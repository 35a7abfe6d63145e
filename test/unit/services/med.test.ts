import t, { type Test } from 'tap'
import type { AccountLookup, MedReturns, ReceivedPayments } from '../../../server/ports.js'
import { MedService } from '../../../server/services/med.js'
import type { Mutable, Natureza, Transaction } from '../../../server/store/state.js'
import { addAccount, addReceived, engine, T0 } from './harness.js'
import { Lifecycles } from '../../../server/store/lifecycle.js'

// MedService alone: a memory store, the clock, the events it emits recorded, and fakes for its three
// neighbours: the received payment a MED names (ReceivedPayments), the account it belongs to
// (AccountLookup), and the refund an approval makes (MedReturns, which records what it was asked).

const none = () => []

async function med (t: Test, config = { medRateLimit: 3 }) {
  const e = await engine(t)
  addAccount(e.store, 1)
  addAccount(e.store, 2)
  const original = addReceived(e.store, { accountId: 1, amountCents: 10_000 })
  const received: ReceivedPayments = { findReceived: id => e.store.transactionByRef(`e2e-in:${id}`) ?? e.store.transaction(id) }
  const accounts: AccountLookup = {
    require: id => {
      const a = e.store.account(id)
      if (!a) throw Object.assign(new Error(`Account ${id} not found`), { code: 'ACCOUNT_NOT_FOUND' })
      return a
    },
  }
  const returns: Array<{ original: string, natureza: Natureza, descricao: string }> = []
  let returnable = true
  const refunds: MedReturns = {
    medReturn: (tx, natureza, descricao) => {
      returns.push({ original: tx.id, natureza, descricao })
      if (!returnable) return null
      // Stored, as the refunds service stores it: its webhook reads it back.
      return e.store.addTransaction({
        ...tx,
        id: `return-of-${tx.id}`,
        seq: e.store.nextSeq('transaction'),
        kind: 'DEVOLUCAO',
        status: 'DEVOLVIDO',
        data: { originalId: tx.id, rtrId: 'D99999004202603101500abcdefghijk', devolucaoId: 'MED1', natureza, motivo: null, requestedAt: tx.createdAt },
      } as Mutable<Transaction> as Transaction)
    },
  }
  const service = new MedService({ ...e, config, received, refunds, accounts })
  const open = (more: { cause?: string, reason?: 'REFUND_REQUEST' | 'REFUND_CANCELLATION' } = {}) =>
    service.open({ endToEndId: original.endToEndId!, reason: more.reason ?? 'REFUND_REQUEST', cause: more.cause }, none)
  return { ...e, service, original, returns, open, setReturnable: (v: boolean) => { returnable = v } }
}

t.test('open: a MED against a received PIX, with med_created, and one pending MED per PIX', async t => {
  const { service, emitted, original, open } = await med(t)
  const record = open({ cause: 'SCAM' })
  t.match(record, {
    accountId: 1,
    endToEnd: original.endToEndId,
    status: 'OPEN',
    reason: 'REFUND_REQUEST',
    cause: 'SCAM',
    originalTransaction: { amount: 100, transactionType: 'PIX_IN', name: 'MARIA PAGADORA', document: '***.982.247-**' },
    requestingBank: { ispb: '00000000' },
    originalTransactionUuid: original.id,
    createdAt: new Date(T0).toISOString(),
  })
  t.same(emitted.map(e => [e.eventType, e.transactionId, e.accountId]), [['med_created', original.id, 1]])
  t.throws(() => open(), { code: 'MED_ALREADY_OPEN', details: { medId: record.id } })
  t.equal(service.get(record.id), record)
  t.throws(() => service.get(999), { code: 'MED_NOT_FOUND' })
  t.throws(() => service.open({ endToEndId: 'E0000000020260310150000000000999', reason: 'REFUND_REQUEST' }, none), { code: 'TRANSACTION_NOT_FOUND' })
  t.throws(() => service.open({ endToEndId: original.id, reason: 'REFUND_REQUEST' }, none), { code: 'TRANSACTION_NOT_FOUND' }, 'by endToEndId, not by transactionId')
})

t.test('transitions follow OPEN -> RECEIVED -> ANALYZED, or CANCELLED before the analysis', async t => {
  const { service, open } = await med(t)
  const record = open()
  t.throws(() => service.transition(record.id, { status: 'ANALYZED', analysisResult: 'APPROVED' }, none), {
    code: 'MED_INVALID_TRANSITION',
    details: { from: 'OPEN', to: 'ANALYZED', allowed: ['RECEIVED', 'CANCELLED'] },
  })
  t.throws(() => service.transition(record.id, { status: 'RECEIVED', analysisResult: 'APPROVED' }, none), { code: 'MED_ANALYSIS_NOT_ALLOWED' })
  t.equal(service.get(record.id).status, 'OPEN', 'a refused transition moves nothing')
  service.transition(record.id, { status: 'RECEIVED' }, none)
  t.throws(() => service.transition(record.id, { status: 'ANALYZED' }, none), { code: 'MED_ANALYSIS_REQUIRED' })
  service.transition(record.id, { status: 'CANCELLED' }, none)
  t.equal(service.get(record.id).status, 'CANCELLED')
  t.throws(() => service.transition(record.id, { status: 'RECEIVED' }, none), { code: 'MED_INVALID_TRANSITION', details: { allowed: [] } })
})

t.test('an approved refund request returns the money (MED_FRAUDE for a fraud cause) and emits med_accepted with it', async t => {
  const { service, emitted, original, returns, open } = await med(t)
  const record = open({ cause: 'SOCIAL_ENGINEERING' })
  service.transition(record.id, { status: 'RECEIVED' }, none)
  const { record: after, refund } = service.transition(record.id, { status: 'ANALYZED', analysisResult: 'APPROVED', analysisDetails: 'golpe confirmado' }, () => [{ name: 'WEBHOOK_DELAY', params: { ms: '10' } }])
  t.same(returns, [{ original: original.id, natureza: 'MED_FRAUDE', descricao: `MED ${record.id}` }])
  t.match(refund, { id: `return-of-${original.id}`, kind: 'DEVOLUCAO' })
  t.equal(service.get(record.id).refundTransactionId, `return-of-${original.id}`)
  t.equal(service.get(record.id).analysisResult, 'APPROVED')
  t.equal(service.get(record.id).analysisDetails, 'golpe confirmado')
  t.equal(after.id, record.id)
  const accepted = emitted.at(-1)!
  t.equal(accepted.eventType, 'med_accepted')
  t.same(accepted.scenarios, [{ name: 'WEBHOOK_DELAY', params: { ms: '10' } }], 'the account\'s scenarios bend its delivery')
  t.match(accepted.payload, { type: 'MED', data: { refund: { id: 'MED1', rtrId: 'D99999004202603101500abcdefghijk', valor: '100.00', natureza: 'MED_FRAUDE', status: 'DEVOLVIDO', motivo: null } } })
})

t.test('an operational cause returns as MED_OPERACIONAL; a cancellation request or a rejection moves no money', async t => {
  const { service, store, emitted, returns } = await med(t)
  const other = addReceived(store, { accountId: 1, amountCents: 500 })
  const third = addReceived(store, { accountId: 1, amountCents: 700 })
  const analyse = (e2e: string, reason: 'REFUND_REQUEST' | 'REFUND_CANCELLATION', result: 'APPROVED' | 'REJECTED', cause?: string) => {
    const r = service.open({ endToEndId: e2e, reason, cause }, none)
    service.transition(r.id, { status: 'RECEIVED' }, none)
    return service.transition(r.id, { status: 'ANALYZED', analysisResult: result }, none)
  }
  analyse(other.endToEndId!, 'REFUND_REQUEST', 'APPROVED', 'WRONG_AMOUNT')
  t.equal(returns.at(-1)!.natureza, 'MED_OPERACIONAL')
  const cancellation = analyse(third.endToEndId!, 'REFUND_CANCELLATION', 'APPROVED')
  t.equal(cancellation.refund, null)
  t.equal(emitted.at(-1)!.eventType, 'med_accepted')
  const rejected = service.open({ endToEndId: third.endToEndId!, reason: 'REFUND_REQUEST' }, none)
  service.transition(rejected.id, { status: 'RECEIVED' }, none)
  t.same(service.transition(rejected.id, { status: 'ANALYZED', analysisResult: 'REJECTED' }, none).refund, null)
  t.equal(emitted.at(-1)!.eventType, 'med_rejected')
  t.equal(returns.length, 1, 'only the approved refund request asked for money back')
})

t.test('an approval with nothing left to return still closes the dispute, without a refund', async t => {
  const { service, open, setReturnable } = await med(t)
  setReturnable(false)
  const record = open({ cause: 'FRAUD' })
  service.transition(record.id, { status: 'RECEIVED' }, none)
  const { refund } = service.transition(record.id, { status: 'ANALYZED', analysisResult: 'APPROVED' }, none)
  t.equal(refund, null)
  t.equal(service.get(record.id).refundTransactionId, null)
  t.equal(service.get(record.id).status, 'ANALYZED')
})

t.test('list: the account\'s MEDs newest first, by status and by São Paulo dates, paged; bad dates are refused', async t => {
  const { service, store, clock, open } = await med(t)
  const first = open()
  service.transition(first.id, { status: 'CANCELLED' }, none)
  clock.set(Date.parse('2026-03-11T02:30:00Z')) // 23:30 on the 10th in São Paulo
  const second = service.open({ endToEndId: addReceived(store, { accountId: 1, amountCents: 100 }).endToEndId!, reason: 'REFUND_REQUEST' }, none)
  clock.set(Date.parse('2026-03-11T03:30:00Z')) // 00:30 on the 11th
  const third = service.open({ endToEndId: addReceived(store, { accountId: 1, amountCents: 100 }).endToEndId!, reason: 'REFUND_REQUEST' }, none)
  service.open({ endToEndId: addReceived(store, { accountId: 2, amountCents: 100 }).endToEndId!, reason: 'REFUND_REQUEST' }, none)
  const ids = (r: ReturnType<typeof service.list>) => r.data.map(m => m.id)
  t.same(ids(service.list(1, {})), [third.id, second.id, first.id], 'newest first, only the account\'s')
  t.same(ids(service.list(1, { status: 'OPEN' })), [third.id, second.id])
  t.same(ids(service.list(1, { startDate: '2026-03-10', endDate: '2026-03-10' })), [second.id, first.id], 'the 10th in São Paulo includes 23:30 local')
  t.same(ids(service.list(1, { startDate: '2026-03-11' })), [third.id])
  const paged = service.list(1, { page: 2, pageSize: 2 })
  t.same(ids(paged), [first.id])
  t.same(paged.metadata, { total: 3, page: 2, pageSize: 2, totalPages: 2 })
  t.throws(() => service.list(1, { startDate: '2026-02-30' }), /startDate/)
  t.match(t.throws(() => service.list(1, { startDate: 'x', endDate: 'y' })), { messages: [/startDate/, /endDate/] }, 'one message per bad field')
  t.same(service.all(2).length, 1)
  t.same(service.all().map(m => m.id), [first.id, second.id, third.id, 4])
})

t.test('the list rate limit: a sliding minute of sandbox time per account, dropped by a reset', async t => {
  const { service, clock } = await med(t, { medRateLimit: 2 })
  t.same(service.takeListSlot(1), { ok: true })
  clock.set(clock.now() + 10_000)
  t.same(service.takeListSlot(1), { ok: true })
  t.same(service.takeListSlot(1), { ok: false, retryAfterMs: 50_000 }, 'until the first request leaves the window')
  t.same(service.takeListSlot(2), { ok: true }, 'per account')
  clock.set(clock.now() + 50_000)
  t.same(service.takeListSlot(1), { ok: true }, 'the first request is out of the window')
  t.same(service.takeListSlot(1).ok, false)
  new Lifecycles([service]).reset()
  t.same(service.takeListSlot(1), { ok: true }, 'a reset forgets every count')
})

t.test('an account\'s removal removes its MEDs and its rate-limit count, and no one else\'s', async t => {
  const { service, store, open } = await med(t, { medRateLimit: 1 })
  const lifecycle = new Lifecycles([service])
  store.onAccountRemoved((id, removed) => lifecycle.accountRemoved(id, removed))
  open()
  service.open({ endToEndId: addReceived(store, { accountId: 2, amountCents: 100 }).endToEndId!, reason: 'REFUND_REQUEST' }, none)
  service.takeListSlot(1)
  service.takeListSlot(2)
  store.transact(() => store.removeAccount(1))
  t.same(service.all(1), [])
  t.equal(service.all(2).length, 1)
  t.same(service.takeListSlot(1), { ok: true })
  t.equal(service.takeListSlot(2).ok, false)
})
