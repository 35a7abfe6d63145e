import t from 'tap'
import { Store } from '../../server/store/store.js'
import { reserve } from '../../server/domain/ledger.js'
import { emptyState, type Account, type TransactionOf } from '../../server/store/state.js'

/**
 * Units of the store (`transact`): an operation applies whole or not at all, in memory mode too.
 * Whatever it changed (records, sequences, indexes) is put back when it throws; an async unit is
 * refused; a unit inside a unit is a savepoint; and no change can happen outside a unit.
 */
const AT = '2026-03-10T15:00:00.000Z'

function account (id: number): Account {
  return {
    id,
    name: `A${id}`,
    document: '11222333000181',
    ispb: '99999004',
    bankName: 'B',
    clientId: `c${id}`,
    clientSecret: 's'.repeat(10),
    certificateFingerprints: [`FP${id}`],
    certificatePem: '',
    providerGroup: 'B',
    documentCheck: false,
    feeCents: 50,
    limits: { perTransactionCents: 1, dailyCents: 1, nightlyCents: 1 },
    cashInMinExpirationSeconds: 30,
    splitFrequency: 'DAILY',
    balance: { availableCents: 1000, blockedCents: 0 },
    totals: { openingCents: 1000, adjustmentsCents: 0, settledInCents: 0, settledOutCents: 0, feesCents: 0 },
    createdAt: AT,
  }
}

function tx (id: string, extra: Partial<TransactionOf<'CASH_OUT'>> = {}): TransactionOf<'CASH_OUT'> {
  return { id, seq: 1, accountId: 1, kind: 'CASH_OUT', direction: 'OUT', status: 'PENDING', amountCents: 1, feeCents: 0, data: { keyType: 'EMAIL', name: 'N', document: '52998224725' }, createdAt: AT, updatedAt: AT, history: [], ...extra }
}

async function storeWithAccount (): Promise<Store> {
  const s = new Store()
  await s.open()
  s.transact(() => s.addAccount(account(1)))
  return s
}

t.test('a unit that throws leaves nothing behind: records, sequences, lookups', async t => {
  const s = await storeWithAccount()
  const restored: string[] = []
  s.onRestored(() => restored.push('rebuilt'))
  const before = JSON.stringify(s.data)
  t.throws(() => s.transact(() => {
    s.update('accounts', 1, a => { reserve(a, 300) })
    const seq = s.nextSeq('transaction')
    s.addTransaction(tx('t1', { seq, externalId: 'e1', endToEndId: 'E1' }), 'cash-out', ['ref-1'])
    s.update('transactions', 't1', d => { d.endToEndId = 'E2' })
    s.put('directory', { key: 'k', keyType: 'EVP', name: 'N', document: '52998224725', ispb: '00000000', bankName: 'B' })
    throw new Error('a step fails after the writes')
  }), { message: 'a step fails after the writes' })
  t.equal(JSON.stringify(s.data), before, 'the document is exactly as before the unit')
  t.equal(s.account(1)!.balance.availableCents, 1000, 'the reservation is back')
  t.equal(s.transaction('t1'), undefined)
  t.equal(s.transactionByExternalId(1, 'cash-out', 'e1'), undefined, 'and so are the lookups')
  t.equal(s.transactionByEndToEndId('E2'), undefined)
  t.equal(s.transactionByRef('ref-1'), undefined)
  t.equal(s.transact(() => s.nextSeq('transaction')), 1, 'the sequence did not move')
  t.same(restored, ['rebuilt'], 'whoever keeps derived state is told to rebuild')
})

t.test('a record is restored in place: a reference held before the unit sees it as it was', async t => {
  const s = await storeWithAccount()
  const held = s.account(1)!
  t.throws(() => s.transact(() => {
    s.update('accounts', 1, a => { a.name = 'CHANGED'; a.certificateFingerprints.push('FPX') })
    throw new Error('no')
  }))
  t.equal(held.name, 'A1')
  t.same(held.certificateFingerprints, ['FP1'])
  t.equal(s.account(1), held, 'the same object')
  t.equal(s.accountByClientId('c1'), held)
})

t.test('removed records come back, added ones go, in the right order for the same id', async t => {
  const s = await storeWithAccount()
  s.transact(() => s.put('directory', { key: 'k', keyType: 'EVP', name: 'OLD', document: '52998224725', ispb: '00000000', bankName: 'B' }))
  t.throws(() => s.transact(() => {
    s.remove('directory', 'k')
    s.put('directory', { key: 'k', keyType: 'EVP', name: 'NEW', document: '52998224725', ispb: '00000000', bankName: 'B' })
    s.removeAccount(1)
    throw new Error('no')
  }))
  t.equal(s.directoryEntry('k')?.name, 'OLD')
  t.equal(s.account(1)?.name, 'A1')
  t.equal(s.accountByFingerprint('FP1')?.id, 1)
})

t.test('a replaced state comes back whole', async t => {
  const s = await storeWithAccount()
  t.throws(() => s.transact(() => {
    s.replace(emptyState())
    throw new Error('no')
  }))
  t.equal(s.account(1)?.clientId, 'c1')
  t.equal(s.accountByClientId('c1')?.id, 1)
})

t.test('a unit inside a unit is a savepoint: the inner one fails alone, the outer one goes on', async t => {
  const s = await storeWithAccount()
  s.transact(() => {
    s.update('accounts', 1, a => { a.name = 'OUTER' })
    t.throws(() => s.transact(() => {
      s.update('accounts', 1, a => { a.name = 'INNER' })
      s.addTransaction(tx('inner'))
      throw new Error('inner fails')
    }))
    t.equal(s.account(1)!.name, 'OUTER', 'back to where the inner unit began')
    t.equal(s.transaction('inner'), undefined)
    s.transact(() => s.addTransaction(tx('kept')))
  })
  t.equal(s.account(1)!.name, 'OUTER')
  t.ok(s.transaction('kept'), 'a successful inner unit belongs to the outer one')
  t.throws(() => s.transact(() => {
    s.transact(() => s.update('accounts', 1, a => { a.name = 'COMMITTED INNER' }))
    throw new Error('outer fails')
  }))
  t.equal(s.account(1)!.name, 'OUTER', 'the outer unit takes its successful inner units back with it')
})

t.test('no await inside a unit: an async function is refused, and so is a returned promise', async t => {
  const s = await storeWithAccount()
  t.throws(() => s.transact(async () => {}), { message: /synchronous function/ })
  t.throws(() => s.transact(() => {
    s.update('accounts', 1, a => { a.name = 'HALF' })
    return Promise.resolve()
  }), { message: /returned a promise/ })
  t.equal(s.account(1)!.name, 'A1', 'and what it had changed is put back')
})

t.test('there is no write outside a unit', async t => {
  const s = await storeWithAccount()
  t.throws(() => s.update('accounts', 1, a => { a.name = 'X' }), { message: /outside store.transact/ })
  t.throws(() => s.nextSeq('account'), { message: /outside store.transact/ })
  t.throws(() => s.addTransaction(tx('t')), { message: /outside store.transact/ })
  t.throws(() => s.transact(() => s.update('accounts', 99, () => {})), { message: /accounts\/99 does not exist/ })
  t.throws(() => s.transact(() => s.addAccount(account(1))), { message: /exists already/ })
  s.transact(() => s.addTransaction(tx('dup')))
  t.throws(() => s.transact(() => s.addTransaction(tx('dup'))), { message: /transactions\/dup exists already/ })
  s.transact(() => s.add('meds', { id: 1 } as never))
  t.throws(() => s.transact(() => s.add('meds', { id: 1 } as never)), { message: /meds\/1 exists already/ })
  t.equal(s.transact(() => s.remove('meds', 404)), false, 'removing what is not there is no change')
  t.equal(s.account(1)!.name, 'A1')
})

t.test('memory mode: commits resolve at once, nothing is ever waiting, health is ok', async t => {
  const s = await storeWithAccount()
  s.transact(() => s.update('accounts', 1, a => { a.name = 'Y' }))
  t.equal(s.hasUndurableChanges(), false)
  await s.commit()
  await s.whenDurable()
  t.same(s.health(), { status: 'ok' })
  t.equal(s.unit(() => s.update('accounts', 1, a => a.name)), 'Y', 'a unit returns what its function returns')
  await s.close()
})

t.test('patch and ledger images are as good as a deep one, also when a deeper change follows in the same unit', async t => {
  const s = await storeWithAccount()
  // A kind whose data nests an object (the parsed BR Code), so the change below is a deep one.
  const nested: TransactionOf<'CASH_OUT_QRCODE'> = { ...tx('t1', { history: [{ status: 'PENDING', at: AT }] }), kind: 'CASH_OUT_QRCODE', data: { qrCode: 'q', brCode: { payloadFormat: '01', singleUse: false, merchantName: 'M', merchantCity: 'C', amountCents: 1 } } }
  s.transact(() => s.addTransaction(nested))
  const before = JSON.stringify(s.data)
  t.throws(() => s.transact(() => {
    s.patch('transactions', 't1', d => { if (d.kind === 'CASH_OUT_QRCODE') { d.status = 'CONFIRMED'; d.history = d.history.concat({ status: 'CONFIRMED', at: AT }) } })
    s.update('transactions', 't1', d => { if (d.kind === 'CASH_OUT_QRCODE') d.data.brCode.amountCents = 2 })
    s.ledger(1, a => reserve(a, 100))
    s.update('accounts', 1, a => { a.limits.dailyCents = 7; a.balance.blockedCents += 1 })
    s.patch('accounts', 1, a => { a.name = 'P' })
    throw new Error('no')
  }))
  t.equal(JSON.stringify(s.data), before, 'every field back, nested ones included')
  t.throws(() => s.transact(() => {
    s.ledger(1, a => reserve(a, 100))
    s.transact(() => s.update('accounts', 1, a => { a.limits.nightlyCents = 9 }))
    throw new Error('no')
  }))
  t.equal(JSON.stringify(s.data), before, 'a deeper change in an inner unit deepens the outer image too')
  // @ts-expect-error a patch cannot edit a nested value in place
  s.transact(() => s.patch('accounts', 1, a => { a.balance.availableCents = 0 }))
})
