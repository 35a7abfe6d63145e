import t from 'tap'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Store } from '../../server/store/store.js'
import { emptyState, type Account, type Transaction } from '../../server/store/state.js'

/** The store: indexes kept in step with the document, per-account removal, snapshots, commits. */

function account (id: number, clientId = `c${id}`, fingerprint = `FP${id}`): Account {
  return {
    id, name: `A${id}`, document: '11222333000181', ispb: '99999004', bankName: 'B', clientId, clientSecret: 's'.repeat(10),
    certificateFingerprints: [fingerprint], certificatePem: '', providerGroup: 'B', documentCheck: false, feeCents: 50,
    limits: { perTransactionCents: 1, dailyCents: 1, nightlyCents: 1 }, cashInMinExpirationSeconds: 30, splitFrequency: 'DAILY',
    balance: { availableCents: 100, blockedCents: 0 },
    totals: { openingCents: 100, adjustmentsCents: 0, settledInCents: 0, settledOutCents: 0, feesCents: 0 },
    createdAt: '2026-03-10T15:00:00.000Z',
  }
}

function tx (id: string, accountId: number, extra: Partial<Transaction> = {}): Transaction {
  return { id, seq: 1, accountId, kind: 'CASH_OUT', direction: 'OUT', status: 'PENDING', amountCents: 1, feeCents: 0, data: {}, createdAt: '', updatedAt: '', history: [], ...extra }
}

t.test('accounts are found by id, clientId and fingerprint', async t => {
  const s = new Store()
  await s.load()
  s.addAccount(account(1))
  s.addAccount(account(2))
  t.equal(s.account(1)?.clientId, 'c1')
  t.equal(s.accountByClientId('c2')?.id, 2)
  t.equal(s.accountByFingerprint('FP1')?.id, 1)
  s.linkCertificate(s.account(1)!, 'FPX')
  t.equal(s.accountByFingerprint('FPX')?.id, 1)
  t.same(s.account(1)!.certificateFingerprints, ['FP1', 'FPX'])
  t.equal(s.accounts().length, 2)
})

t.test('removing an account removes its transactions, lookups and other owners\' records', async t => {
  const s = new Store()
  await s.load()
  s.addAccount(account(1))
  s.addAccount(account(2))
  s.addTransaction(tx('t1', 1, { externalId: 'e1', endToEndId: 'E1', idempotencyKey: 'k1' }), 'cash-out')
  s.addTransaction(tx('t2', 2, { externalId: 'e1' }), 'cash-out')
  s.addRef(s.transaction('t1')!, 'txid-1')
  const removed: number[] = []
  s.onAccountRemoved(id => removed.push(id))
  s.removeAccount(1)
  t.equal(s.account(1), undefined)
  t.equal(s.accountByClientId('c1'), undefined)
  t.equal(s.accountByFingerprint('FP1'), undefined)
  t.equal(s.transaction('t1'), undefined)
  t.equal(s.transactionByExternalId(1, 'cash-out', 'e1'), undefined)
  t.equal(s.transactionByEndToEndId('E1'), undefined)
  t.equal(s.transactionByIdempotencyKey(1, 'k1'), undefined)
  t.equal(s.transactionByRef('txid-1'), undefined)
  t.same(removed, [1])
  t.equal(s.transactionByExternalId(2, 'cash-out', 'e1')?.id, 't2', 'the other account keeps its records')
  t.equal(s.transactionsOf(2).length, 1)
})

t.test('externalId lookups are per account and per scope', async t => {
  const s = new Store()
  await s.load()
  s.addTransaction(tx('t1', 1, { externalId: 'same' }), 'cash-out')
  t.equal(s.transactionByExternalId(1, 'cash-out', 'same')?.id, 't1')
  t.equal(s.transactionByExternalId(1, 'cash-in', 'same'), undefined)
  t.equal(s.transactionByExternalId(2, 'cash-out', 'same'), undefined)
})

t.test('sequences, snapshot and replace (indexes rebuilt, snapshot detached)', async t => {
  const s = new Store()
  await s.load()
  t.equal(s.nextSeq('account'), 1)
  t.equal(s.nextSeq('account'), 2)
  t.equal(s.nextSeq('tx'), 1)
  s.addAccount(account(1))
  s.addTransaction(tx('t1', 1, { externalId: 'e' }), 'cash-out')
  const snap = s.snapshot()
  s.account(1)!.balance.availableCents = 5
  t.equal(snap.accounts['1'].balance.availableCents, 100, 'the snapshot is a copy')
  s.replace(snap)
  t.equal(s.account(1)!.balance.availableCents, 100)
  t.equal(s.transactionByExternalId(1, 'cash-out', 'e')?.id, 't1', 'indexes rebuilt from the document')
  snap.accounts['1'].balance.availableCents = 1
  t.equal(s.account(1)!.balance.availableCents, 100, 'replace copies its input')
  t.equal(s.nextSeq('account'), 3)
  s.replace(emptyState())
  t.equal(s.accountByClientId('c1'), undefined)
})

t.test('memory store: commit resolves at once and load finds nothing', async t => {
  const s = new Store()
  t.equal(await s.load(), false)
  t.equal(s.persistent, false)
  await s.commit()
})

t.test('file store: concurrent commits share writes and the last state wins on disk', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-store-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'db.json')
  const s = new Store({ file })
  t.equal(await s.load(), false, 'a missing file holds no state')
  s.addAccount(account(1))
  const commits: Array<Promise<void>> = []
  for (let i = 1; i <= 20; i++) {
    s.account(1)!.balance.availableCents = i
    commits.push(s.commit())
  }
  await Promise.all(commits)
  t.equal(JSON.parse(readFileSync(file, 'utf8')).accounts['1'].balance.availableCents, 20)
  const again = new Store({ file })
  t.equal(await again.load(), true)
  t.equal(again.accountByClientId('c1')?.balance.availableCents, 20, 'indexes rebuilt on load')
})
