import t from 'tap'
import type { PendingOperations } from '../../../server/ports.js'
import { iso, recordTransition } from '../../../server/services/history.js'
import { TransactionService } from '../../../server/services/transactions.js'
import { addAccount, addPayout, addReceived, engine } from './harness.js'

// TransactionService alone, over a memory store: the queries across every kind of transaction and the
// registry that POST /__sandbox/transactions/:id/settle and /fail dispatch through.

async function transactions (t: Parameters<typeof engine>[0]) {
  const e = await engine(t)
  addAccount(e.store, 1)
  addAccount(e.store, 2)
  return { ...e, service: new TransactionService({ store: e.store }) }
}

t.test('the registry answers the operations registered for each kind, and nothing for another', async t => {
  const { service } = await transactions(t)
  const settled: string[] = []
  const payouts: PendingOperations = { kinds: ['CASH_OUT', 'DICT_TRANSFER'], isPending: () => true, settle: tx => { settled.push(tx.id) }, fail: () => {} }
  const refunds: PendingOperations = { kinds: ['REFUND_IN'], isPending: () => false, settle: () => {}, fail: () => {} }
  service.register(payouts)
  service.register(refunds)
  t.equal(service.pendingOperationsFor('CASH_OUT'), payouts)
  t.equal(service.pendingOperationsFor('DICT_TRANSFER'), payouts)
  t.equal(service.pendingOperationsFor('REFUND_IN'), refunds)
  t.equal(service.pendingOperationsFor('COB'), undefined, 'a charge cannot be settled or failed through the registry')
})

t.test('list: newest first, by account, kind and status, with a limit', async t => {
  const { service, store } = await transactions(t)
  const a = addReceived(store, { accountId: 1, amountCents: 100 })
  const b = addPayout(store, { accountId: 1, amountCents: 50 })
  const c = addReceived(store, { accountId: 2, amountCents: 300 })
  const d = addReceived(store, { accountId: 1, amountCents: 400 })
  t.same(service.list({}).map(x => x.id), [d.id, c.id, b.id, a.id])
  t.same(service.list({ accountId: 1 }).map(x => x.id), [d.id, b.id, a.id], 'only the account\'s own')
  t.same(service.list({ accountId: 1, kind: 'CASH_OUT' }).map(x => x.id), [b.id])
  t.same(service.list({ status: 'CONFIRMED', limit: 2 }).map(x => x.id), [d.id, c.id])
  t.same(service.list({ status: 'PENDING' }), [])
  t.same(service.list({ accountId: 3 }), [], 'an account with no transactions')
})

t.test('find by UUID or by the numeric id the public answers show', async t => {
  const { service, store } = await transactions(t)
  const a = addReceived(store, { accountId: 1, amountCents: 100 })
  const b = addReceived(store, { accountId: 2, amountCents: 200 })
  t.equal(service.find(a.id), a)
  t.equal(service.find(String(b.seq)), b, 'the numeric id (existingTransactionId, /dict/pix id)')
  t.equal(service.find('999'), undefined)
  t.equal(service.find('not-an-id'), undefined)
})

t.test('findReceived: a received payment by its endToEndId or its transactionId, never a pay-out by its endToEndId', async t => {
  const { service, store } = await transactions(t)
  const received = addReceived(store, { accountId: 1, amountCents: 100 })
  const payout = addPayout(store, { accountId: 1, amountCents: 50 })
  t.equal(service.findReceived(received.endToEndId!), received)
  t.equal(service.findReceived(received.id), received)
  t.equal(service.findReceived(payout.endToEndId!), undefined, 'the endToEndId of an outgoing payment names no received one')
  t.equal(service.findReceived('E0000000020260310150099999999999'), undefined)
})

t.test('recordTransition (services/history.ts): the status, when it changed, and one more entry in the history', async t => {
  const { store } = await transactions(t)
  const tx = addReceived(store, { accountId: 1, amountCents: 100, kind: 'CASH_IN' })
  store.transact(() => store.patch('transactions', tx.id, d => recordTransition(d, 'ERROR', '2026-03-10T15:00:01.000Z', 'failed')))
  store.transact(() => store.patch('transactions', tx.id, d => recordTransition(d, 'CONFIRMED', '2026-03-10T15:00:02.000Z')))
  const after = store.transaction(tx.id)!
  t.equal(after.status, 'CONFIRMED')
  t.equal(after.updatedAt, '2026-03-10T15:00:02.000Z')
  t.same(after.history.slice(1), [{ status: 'ERROR', at: '2026-03-10T15:00:01.000Z', reason: 'failed' }, { status: 'CONFIRMED', at: '2026-03-10T15:00:02.000Z' }], 'no reason key when none was given')
  t.equal(iso(Date.parse('2026-03-10T12:00:00-03:00')), '2026-03-10T15:00:00.000Z')
})
