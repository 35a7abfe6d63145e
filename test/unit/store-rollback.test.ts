import t from 'tap'
import { Store } from '../../server/store/store.js'
import type { Restored } from '../../server/store/store.js'
import { reserve } from '../../server/domain/ledger.js'
import { emptyState, type CobR, type TransactionOf } from '../../server/store/state.js'
import { accountRecord, T0 } from './services/harness.js'

/**
 * A rollback restores only what the failed unit touched: its records, sequences and the index entries
 * of those records. The store tells whoever keeps derived state which records came back, and leaves
 * every other record's index entries as they were (no index is rebuilt).
 */
const AT = new Date(T0).toISOString()

function tx (id: string, accountId: number, seq: number, extra: Partial<TransactionOf<'CASH_OUT'>> = {}): TransactionOf<'CASH_OUT'> {
  return { id, seq, accountId, kind: 'CASH_OUT', direction: 'OUT', status: 'PENDING', amountCents: 1, feeCents: 0, data: { keyType: 'EMAIL', name: 'N', document: '52998224725' }, createdAt: AT, updatedAt: AT, history: [], ...extra }
}

async function twoAccounts (): Promise<Store> {
  const s = new Store()
  await s.open()
  s.transact(() => {
    s.addAccount(accountRecord(1, { certificateFingerprints: ['FP1'] }))
    s.addAccount(accountRecord(2, { certificateFingerprints: ['FP2'] }))
    s.addTransaction(tx('a1', 1, 1, { externalId: 'x1', endToEndId: 'E-a1' }), 'cash-out', ['ref-a1'])
    s.addTransaction(tx('b1', 2, 2, { externalId: 'x1', endToEndId: 'E-b1' }), 'cash-out', ['ref-b1'])
    s.addTransaction(tx('b2', 2, 3))
  })
  return s
}

t.test('a failed unit tells its listeners which records it put back, each as it is now', async t => {
  const s = await twoAccounts()
  const told: Restored[] = []
  s.onRestored(r => { told.push(r) })
  t.throws(() => s.transact(() => {
    s.ledger(1, a => reserve(a, 100))
    s.addTransaction(tx('a2', 1, s.nextSeq('transaction')))
    throw new Error('a late step fails')
  }))
  t.equal(told.length, 1)
  const [restored] = told
  t.equal(restored.whole, false, 'not a whole state')
  t.same(restored.of('accounts').map(a => a.id), [1], 'the account it moved money on')
  t.same(restored.of('transactions').map(x => x.id), ['a2'], 'the transaction it added')
  t.same(restored.inState('transactions'), [], 'which is no longer in the state')
  t.same(restored.inState('accounts').map(a => a.balance.availableCents), [500_000], 'the account is, as it was')
  t.same(restored.of('deliveries'), [], 'nothing else')
})

t.test('a failed unit puts back the index entries of what it touched and leaves every other one alone', async t => {
  const s = await twoAccounts()
  const listOf2 = s.transactionsOf(2)
  const b1 = s.transaction('b1')
  t.throws(() => s.transact(() => {
    s.addTransaction(tx('a2', 1, s.nextSeq('transaction'), { externalId: 'x2', endToEndId: 'E-a2', idempotencyKey: 'k-a2' }), 'cash-out', ['ref-a2'])
    s.update('transactions', 'a1', d => { d.endToEndId = 'E-a1-changed' })
    s.addRef('a1', 'ref-a1-more')
    s.linkCertificate(1, 'FP1-more')
    throw new Error('a late step fails')
  }))
  t.same(s.transactionsOf(1).map(x => x.id), ['a1'], 'the added transaction left its account\'s list')
  t.equal(s.transactionByExternalId(1, 'cash-out', 'x2'), undefined)
  t.equal(s.transactionByIdempotencyKey(1, 'k-a2'), undefined)
  t.equal(s.transactionByRef('ref-a2'), undefined)
  t.equal(s.transactionByEndToEndId('E-a2'), undefined)
  t.equal(s.transactionByEndToEndId('E-a1-changed'), undefined, 'a key the unit gave a record is gone')
  t.equal(s.transactionByEndToEndId('E-a1')?.id, 'a1', 'and the key it had is back')
  t.equal(s.transactionByRef('ref-a1-more'), undefined)
  t.equal(s.transactionByRef('ref-a1')?.id, 'a1')
  t.equal(s.accountByFingerprint('FP1-more'), undefined)
  t.equal(s.accountByFingerprint('FP1')?.id, 1)
  t.equal(s.transactionsOf(2), listOf2, 'the list of an account the unit did not touch is the very same one: nothing was rebuilt')
  t.equal(s.transactionByRef('ref-b1'), b1)
  t.equal(s.transactionByExternalId(2, 'cash-out', 'x1'), b1)
})

/** A cob of `txid` (kind COB) and a cobr: the two kinds of record a txid may name. */
function cob (id: string, accountId: number, seq: number, txid: string): TransactionOf<'COB'> {
  return { id, seq, accountId, kind: 'COB', direction: 'IN', status: 'ATIVA', amountCents: 1000, feeCents: 0, data: { txid, location: `loc/${id}`, pixCode: 'x', splits: [], cob: { expiracao: 3600, original: '10.00', modalidadeAlteracao: 0, locId: seq } }, createdAt: AT, updatedAt: AT, history: [] } as unknown as TransactionOf<'COB'>
}
function cobr (id: number, accountId: number, txid: string): CobR {
  return { id, accountId, txid, idRec: 'RN1234567820260310abcdefghijk', criacao: '2026-03-10', createdAt: AT, calendario: { dataDeVencimento: '2026-03-20' }, valor: { original: '10.00' }, ajusteDiaUtil: true, recebedor: { conta: '1', tipoConta: 'CORRENTE' }, politicaRetentativa: 'NAO_PERMITE', status: 'CRIADA', atualizacao: [], tentativas: [] } as unknown as CobR
}

t.test('the charges a txid names, of any kind, follow a rollback: added ones leave, removed ones come back', async t => {
  const s = await twoAccounts()
  s.transact(() => {
    s.addTransaction(cob('c1', 1, s.nextSeq('transaction'), 'TXIDOFACOB0000000000000000'))
    s.add('cobrs', cobr(1, 1, 'TXIDOFACOBR000000000000000'))
  })
  const [c1, r1] = [s.chargeOfTxid(1, 'TXIDOFACOB0000000000000000'), s.chargeOfTxid(1, 'TXIDOFACOBR000000000000000')]
  t.equal(c1, s.transaction('c1'), 'a cob by its txid')
  t.equal(r1, s.data.cobrs[1], 'a cobr by its txid')
  t.equal(s.chargeOfTxid(2, 'TXIDOFACOB0000000000000000'), undefined, 'the txid is the account\'s: another has no charge of it')
  t.throws(() => s.transact(() => {
    s.add('cobrs', cobr(2, 1, 'TXIDADDEDTHENROLLEDBACK000'))
    s.addTransaction(cob('c2', 1, s.nextSeq('transaction'), 'TXIDOFACOBADDEDTHENGONE000'))
    s.remove('cobrs', 1)
    throw new Error('a late step fails')
  }))
  t.equal(s.chargeOfTxid(1, 'TXIDADDEDTHENROLLEDBACK000'), undefined, 'a cobr the failed unit added is not found')
  t.equal(s.chargeOfTxid(1, 'TXIDOFACOBADDEDTHENGONE000'), undefined, 'nor a cob it added')
  t.equal(s.chargeOfTxid(1, 'TXIDOFACOBR000000000000000'), r1, 'a cobr it removed is found again')
  t.equal(s.chargeOfTxid(1, 'TXIDOFACOB0000000000000000'), c1)
  s.transact(() => s.remove('cobrs', 1))
  t.equal(s.chargeOfTxid(1, 'TXIDOFACOBR000000000000000'), undefined, 'a removed cobr leaves the index')
  s.transact(() => s.replace(s.snapshot()))
  t.equal(s.chargeOfTxid(1, 'TXIDOFACOB0000000000000000')?.id, 'c1', 'a replaced state is indexed anew')
})

t.test('a failed account removal puts the account and its transactions back, in their order and findable', async t => {
  const s = await twoAccounts()
  s.transact(() => s.addTransaction(tx('b3', 2, 4, { idempotencyKey: 'k-b3' })))
  const order = s.transactionsOf(2).map(x => x.id)
  t.throws(() => s.transact(() => {
    s.removeAccount(2)
    throw new Error('a late step fails')
  }))
  t.equal(s.account(2)?.id, 2)
  t.same(s.transactionsOf(2).map(x => x.id), order, 'in creation order, as before')
  t.equal(s.accountByClientId('client-2')?.id, 2)
  t.equal(s.accountByFingerprint('FP2')?.id, 2)
  t.equal(s.transactionByEndToEndId('E-b1')?.id, 'b1')
  t.equal(s.transactionByIdempotencyKey(2, 'k-b3')?.id, 'b3')
  t.same(s.transactionsOf(1).map(x => x.id), ['a1'])
})

t.test('a failed replacement of the whole state says so: everything derived is rebuilt then', async t => {
  const s = await twoAccounts()
  const told: Restored[] = []
  s.onRestored(r => { told.push(r) })
  t.throws(() => s.transact(() => {
    s.replace(emptyState())
    throw new Error('no')
  }))
  t.equal(told[0]?.whole, true)
  t.equal(s.transactionByRef('ref-b1')?.id, 'b1')
})
