import t, { type Test } from 'tap'
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { Store } from '../../server/store/store.js'
import { emptyState, type Account, type State, type TransactionOf } from '../../server/store/state.js'

/**
 * The store: indexes kept in step with the document, per-account removal, snapshots, commits. Every
 * change goes through a unit (`transact`) and the write API, as in the services.
 */
const AT = '2026-03-10T15:00:00.000Z'

function account (id: number, clientId = `c${id}`, fingerprint = `FP${id}`): Account {
  return {
    id,
    name: `A${id}`,
    document: '11222333000181',
    ispb: '99999004',
    bankName: 'B',
    clientId,
    clientSecret: 's'.repeat(10),
    certificateFingerprints: [fingerprint],
    certificatePem: '',
    providerGroup: 'B',
    documentCheck: false,
    feeCents: 50,
    limits: { perTransactionCents: 1, dailyCents: 1, nightlyCents: 1 },
    cashInMinExpirationSeconds: 30,
    splitFrequency: 'DAILY',
    balance: { availableCents: 100, blockedCents: 0 },
    totals: { openingCents: 100, adjustmentsCents: 0, settledInCents: 0, settledOutCents: 0, feesCents: 0 },
    createdAt: AT,
  }
}

function tx (id: string, accountId: number, extra: Partial<TransactionOf<'CASH_OUT'>> = {}): TransactionOf<'CASH_OUT'> {
  return { id, seq: 1, accountId, kind: 'CASH_OUT', direction: 'OUT', status: 'PENDING', amountCents: 1, feeCents: 0, data: { keyType: 'EMAIL', name: 'N', document: '52998224725' }, createdAt: AT, updatedAt: AT, history: [], ...extra }
}

t.test('accounts are found by id, clientId and fingerprint', async t => {
  const s = new Store()
  await s.open()
  s.transact(() => {
    s.addAccount(account(1))
    s.addAccount(account(2))
  })
  t.equal(s.account(1)?.clientId, 'c1')
  t.equal(s.accountByClientId('c2')?.id, 2)
  t.equal(s.accountByFingerprint('FP1')?.id, 1)
  s.transact(() => s.linkCertificate(1, 'FPX'))
  t.equal(s.accountByFingerprint('FPX')?.id, 1)
  t.same(s.account(1)!.certificateFingerprints, ['FP1', 'FPX'])
  t.equal(s.accounts().length, 2)
})

t.test('removing an account removes its transactions, lookups and the records of every collection that names it', async t => {
  const s = new Store()
  await s.open()
  const webhook = (id: number, accountId: number) => ({ id, accountId, eventType: 'cash_in' as const, url: 'https://example.com/hook', headers: {}, isActive: true, version: 1, createdAt: AT, updatedAt: AT })
  const loc = (id: number, accountId: number) => ({ id, accountId, tipoCob: 'cob' as const, location: `pix.example.com/qr/v2/t${id}`, createdAt: AT })
  s.transact(() => {
    s.addAccount(account(1))
    s.addAccount(account(2))
    s.addTransaction(tx('t1', 1, { externalId: 'e1', endToEndId: 'E1', idempotencyKey: 'k1' }), 'cash-out')
    s.addTransaction(tx('t2', 2, { externalId: 'e1' }), 'cash-out')
    s.addRef('t1', 'txid-1')
    s.add('webhooks', webhook(1, 1))
    s.add('webhooks', webhook(2, 2))
    s.add('locations', loc(1, 1))
    s.add('locations', loc(2, 1))
    s.add('locations', loc(3, 2))
    s.add('signingKeys', { id: 'k', alg: 'ES256', privateJwk: { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: 'd' }, createdAt: AT })
  })
  const removed: number[] = []
  const named: Record<string, unknown[]> = {}
  s.onAccountRemoved((id, records) => {
    removed.push(id)
    for (const c of ['transactions', 'webhooks', 'locations', 'signingKeys'] as const) named[c] = records.of(c).map(r => r.id)
  })
  s.transact(() => s.removeAccount(1))
  t.same(Object.keys(s.data.webhooks), ['2'], 'its webhooks go')
  t.same(Object.keys(s.data.locations), ['3'], 'its locations go')
  t.same(Object.keys(s.data.signingKeys), ['k'], 'a record that names no account stays')
  t.same(named, { transactions: ['t1'], webhooks: [1], locations: [1, 2], signingKeys: [] }, 'the listeners are told which records went')
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
  await s.open()
  s.transact(() => s.addTransaction(tx('t1', 1, { externalId: 'same' }), 'cash-out'))
  t.equal(s.transactionByExternalId(1, 'cash-out', 'same')?.id, 't1')
  t.equal(s.transactionByExternalId(1, 'cash-in', 'same'), undefined)
  t.equal(s.transactionByExternalId(2, 'cash-out', 'same'), undefined)
})

t.test('sequences, snapshot and replace (indexes rebuilt, snapshot detached)', async t => {
  const s = new Store()
  await s.open()
  s.transact(() => {
    t.equal(s.nextSeq('account'), 1)
    t.equal(s.nextSeq('account'), 2)
    t.equal(s.nextSeq('tx'), 1)
    s.addAccount(account(1))
    s.addTransaction(tx('t1', 1, { externalId: 'e' }), 'cash-out')
  })
  const snap = s.snapshot() as unknown as State
  s.transact(() => s.update('accounts', 1, a => { a.balance.availableCents = 5 }))
  t.equal(snap.accounts['1'].balance.availableCents, 100, 'the snapshot is a copy')
  s.transact(() => s.replace(snap))
  t.equal(s.account(1)!.balance.availableCents, 100)
  t.equal(s.transactionByExternalId(1, 'cash-out', 'e')?.id, 't1', 'indexes rebuilt from the document')
  ;(snap.accounts['1'].balance as { availableCents: number }).availableCents = 1
  t.equal(s.account(1)!.balance.availableCents, 100, 'replace copies its input')
  t.equal(s.transact(() => s.nextSeq('account')), 3)
  s.transact(() => s.replace(emptyState()))
  t.equal(s.accountByClientId('c1'), undefined)
})

t.test('memory store: commit resolves at once and load finds nothing', async t => {
  const s = new Store()
  t.equal((await s.open()).found, false)
  t.equal(s.persistent, false)
  await s.commit()
})

t.test('file store: concurrent commits share writes and the last state wins on disk', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-store-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'db.json')
  const s = new Store({ file })
  t.equal((await s.open()).found, false, 'a missing file holds no state')
  s.transact(() => s.addAccount(account(1)))
  const commits: Array<Promise<void>> = []
  for (let i = 1; i <= 20; i++) {
    s.transact(() => s.update('accounts', 1, a => { a.balance.availableCents = i }))
    commits.push(s.commit())
  }
  await Promise.all(commits)
  const again = new Store({ file })
  t.equal((await again.open()).found, true)
  t.equal(again.accountByClientId('c1')?.balance.availableCents, 20, 'indexes rebuilt on load')
})

function tempFile (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'pix-store-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return join(dir, 'db.json')
}

const journalsOf = (file: string): string[] =>
  readdirSync(dirname(file)).filter(n => n.startsWith(`${basename(file)}.journal-`)).sort()

t.test('file store: a commit appends the changed records to the journal and leaves the base alone', async t => {
  const file = tempFile(t)
  const s = new Store({ file })
  await s.open()
  s.transact(() => s.addAccount(account(1)))
  await s.commit()
  const base = readFileSync(file, 'utf8')
  t.equal(JSON.parse(base).journalGeneration, 1, 'the first commit of a new file writes the base, generation 1')
  t.same(journalsOf(file), [], 'and no journal yet')

  s.transact(() => {
    s.addTransaction(tx('t1', 1, { externalId: 'e1' }), 'cash-out')
    s.update('accounts', 1, a => { a.balance.availableCents = 99 })
  })
  await s.commit()
  t.equal(readFileSync(file, 'utf8'), base, 'the base is not rewritten')
  const lines = readFileSync(`${file}.journal-1`, 'utf8').trim().split('\n').map(l => JSON.parse(l))
  t.same(lines.map(l => [l[0], l[1]]).sort(), [['accounts', '1'], ['seq', null], ['transactions', 't1']], 'one line per changed record, and the sequences')

  await s.commit()
  t.equal(readFileSync(`${file}.journal-1`, 'utf8').trim().split('\n').length, 3, 'a commit with no change appends nothing')

  const again = new Store({ file })
  t.equal((await again.open()).found, true)
  t.equal(again.account(1)?.balance.availableCents, 99, 'the journal is replayed over the base')
  t.equal(again.transactionByExternalId(1, 'cash-out', 'e1')?.id, 't1', 'and the indexes include replayed records')

  await again.close()
  const folded = JSON.parse(readFileSync(file, 'utf8'))
  t.equal(folded.accounts['1'].balance.availableCents, 99, 'closing folds the journal into the base')
  t.ok(folded.transactions.t1)
  t.same(journalsOf(file), [], 'and leaves no journal behind')
})

t.test('file store: removals are journaled, and a torn last line (a kill mid-append) is ignored', async t => {
  const file = tempFile(t)
  const s = new Store({ file })
  await s.open()
  s.transact(() => {
    s.addAccount(account(1))
    s.put('directory', { key: 'k', keyType: 'EVP', name: 'N', document: '52998224725', ispb: '00000000', bankName: 'B' })
  })
  await s.commit()
  s.transact(() => {
    s.remove('directory', 'k')
    s.addTransaction(tx('t1', 1))
  })
  await s.commit()
  appendFileSync(`${file}.journal-1`, '["transactions","t2",{"id":"t2","acc')
  const again = new Store({ file })
  await again.open()
  t.equal(again.data.directory.k, undefined, 'the removal is replayed')
  t.ok(again.transaction('t1'))
  t.equal(again.transaction('t2'), undefined, 'the torn line is dropped')
})

t.test('file store: a line that is not JSON before the end is an error naming the file and line', async t => {
  const file = tempFile(t)
  const s = new Store({ file })
  await s.open()
  s.transact(() => s.addAccount(account(1)))
  await s.commit()
  s.transact(() => s.addTransaction(tx('t1', 1)))
  await s.commit()
  const journal = `${file}.journal-1`
  writeFileSync(journal, 'garbage\n' + readFileSync(journal, 'utf8'))
  await t.rejects(new Store({ file }).open(), { message: /journal-1 has a damaged line 1 \(not JSON\)/ })
})

t.test('file store: compaction writes a new base generation, deletes the old journal, and loses nothing', async t => {
  const file = tempFile(t)
  const s = new Store({ file, compactionFloorBytes: 2000 })
  await s.open()
  s.transact(() => s.addAccount(account(1)))
  await s.commit()
  for (let i = 0; i < 40; i++) {
    s.transact(() => s.addTransaction(tx(`t${i}`, 1, { externalId: `e${i}` }), 'cash-out'))
    // flush, not commit: each compaction ends before the next append, so how many there are, and how
    // much the last base holds, does not depend on how fast the disk is against the loop.
    await s.flush()
  }
  const generation = JSON.parse(readFileSync(file, 'utf8')).journalGeneration
  t.ok(generation > 1, `the journal outgrew the floor and was compacted (generation ${generation})`)
  t.ok(journalsOf(file).every(n => Number(n.split('-').pop()) >= generation), 'journals older than the base are gone')
  t.ok(statSync(file).size > 40 * 100, 'the base holds the records')
  const again = new Store({ file })
  await again.open()
  t.equal(Object.keys(again.data.transactions).length, 40)
  t.equal(again.transactionByExternalId(1, 'cash-out', 'e39')?.id, 't39')
})

t.test('file store: a journal older than the base (a kill after a compaction wrote the base) is not replayed', async t => {
  const file = tempFile(t)
  const s = new Store({ file })
  await s.open()
  s.transact(() => s.addAccount(account(1)))
  await s.commit()
  // What a compaction leaves if killed between writing base generation 2 and deleting journal 1.
  writeFileSync(`${file}.journal-1`, JSON.stringify(['accounts', '1', { ...account(1), name: 'STALE' }]) + '\n')
  const doc = JSON.parse(readFileSync(file, 'utf8'))
  writeFileSync(file, JSON.stringify({ ...doc, journalGeneration: 2 }))
  const again = new Store({ file })
  await again.open()
  t.equal(again.account(1)?.name, 'A1', 'the stale line is ignored')
  t.notOk(existsSync(`${file}.journal-1`), 'and its journal deleted')
})

t.test('file store: replace (reset, import) and account removal rewrite the base', async t => {
  const file = tempFile(t)
  const s = new Store({ file })
  await s.open()
  s.transact(() => {
    s.addAccount(account(1))
    s.addAccount(account(2))
    s.addTransaction(tx('t1', 2))
  })
  await s.commit()
  s.transact(() => s.removeAccount(2))
  await s.commit()
  t.equal(JSON.parse(readFileSync(file, 'utf8')).journalGeneration, 2)
  t.same(Object.keys(JSON.parse(readFileSync(file, 'utf8')).accounts), ['1'])
  s.transact(() => s.replace(emptyState()))
  await s.commit()
  const again = new Store({ file })
  t.equal((await again.open()).found, true)
  t.same(again.data.accounts, {}, 'the replaced state is what reloads')
  t.same(journalsOf(file), [], 'with no journal left to replay')
})
