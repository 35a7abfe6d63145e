import t, { type Test } from 'tap'
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Store, type StoreHealth } from '../../server/store/store.js'
import type { Account, ClockRecord, Transaction } from '../../server/store/state.js'
import { FaultyFs } from '../helpers/faulty-fs.js'

/**
 * Acknowledged means stored, refused means not applied (docs/reliability.md): every commit resolves only
 * once its changes are on disk, compaction included, and a write that fails takes back every change
 * not on disk. A file system that is slow or full on cue catches the moments in between.
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

function tx (id: string): Transaction {
  return { id, seq: 1, accountId: 1, kind: 'CASH_OUT', direction: 'OUT', status: 'PENDING', amountCents: 1, feeCents: 0, data: { keyType: 'EMAIL', name: 'N', document: '52998224725' }, createdAt: AT, updatedAt: AT, history: [] }
}

function tempDir (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'pix-durable-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

async function reload (file: string): Promise<Store> {
  const s = new Store({ file })
  await s.open()
  return s
}

/** A store on a faulty disk whose base (generation 1) already holds account 1. */
async function started (t: Test, opts: { compactionFloorBytes?: number, retryMs?: number } = {}): Promise<{ s: Store, fs: FaultyFs, file: string, dir: string }> {
  const dir = tempDir(t)
  const file = join(dir, 'state.json')
  const fs = new FaultyFs()
  const s = new Store({ file, fs, compactionFloorBytes: opts.compactionFloorBytes ?? 2 ** 30, retryMs: opts.retryMs ?? 60_000 })
  t.teardown(() => { fs.heal(); return s.close() })
  await s.open()
  s.transact(() => s.addAccount(account(1)))
  await s.commit()
  t.equal(JSON.parse(readFileSync(file, 'utf8')).journalGeneration, 1)
  return { s, fs, file, dir }
}

const rename = (s: Store, name: string): void => s.transact(() => s.update('accounts', 1, a => { a.name = name }))
/** A name long enough that its one journal line outgrows the base (with a low floor, a compaction follows). */
const LONG = 'A'.repeat(4000)

t.test('a commit made while the journal is being folded is on disk when it resolves', async t => {
  // The floor is low and the base small: the append of A takes the journal past the base, and a
  // compaction starts as it ends. X is committed while A's append is under way.
  const { s, fs, file, dir } = await started(t, { compactionFloorBytes: 1 })
  const appendA = fs.hold('appendFile', 'journal-1')
  rename(s, LONG)
  const committedA = s.commit()
  await appendA.reached
  s.transact(() => s.addTransaction(tx('X')))
  const committedX = s.commit()
  const slowBase = fs.hold('writeFile', 'pix-sandbox-tmp')
  appendA.release()
  await committedA
  await slowBase.reached
  await committedX
  // The moment X is acknowledged, with the new base still being written: what a kill would leave.
  const copy = join(tempDir(t), 'copy')
  cpSync(dir, copy, { recursive: true })
  t.equal(JSON.parse(readFileSync(join(copy, 'state.json'), 'utf8')).journalGeneration, 1, 'the compaction had not ended')
  const copied = await reload(join(copy, 'state.json'))
  t.ok(copied.transaction('X'), 'the acknowledged change is in the copy')
  t.equal(copied.account(1)?.name, LONG)
  slowBase.release()
  await s.flush()
  t.equal(JSON.parse(readFileSync(file, 'utf8')).journalGeneration, 2, 'then the compaction ended')
  t.ok((await reload(file)).transaction('X'))
})

t.test('a failed append rolls back its changes and those queued behind it, and degrades the store', async t => {
  const { s, fs, file } = await started(t)
  const health: StoreHealth[] = []
  s.onHealthChange(h => health.push(h))
  const failing = fs.hold('appendFile', 'journal-1', 'fail')
  s.transact(() => s.update('accounts', 1, a => { a.balance.availableCents -= 300; a.balance.blockedCents += 300 }))
  const first = s.commit()
  await failing.reached
  s.transact(() => s.addTransaction(tx('queued')))
  const queued = s.commit()
  failing.release()
  await t.rejects(first, { name: 'StoreWriteError' })
  await t.rejects(queued, { message: /ENOSPC/ })
  t.same(s.account(1)!.balance, { availableCents: 1000, blockedCents: 0 }, 'the change under way is rolled back')
  t.equal(s.transaction('queued'), undefined, 'and so is the one that queued behind it')
  t.equal(s.hasUndurableChanges(), false, 'nothing is left waiting: reads are answered from what is on disk')
  const degraded = s.health()
  t.equal(degraded.status, 'degraded')
  t.match(degraded, { reason: /state\.json failed: ENOSPC/ })
  t.same(health.map(h => h.status), ['degraded'])

  // The disk is back: the next write rewrites the base under a new generation (the journal the failed
  // append may have torn is never appended to again) and the store is ok again.
  fs.heal()
  s.transact(() => s.addTransaction(tx('after')))
  await s.commit()
  t.same(s.health(), { status: 'ok' })
  t.same(health.map(h => h.status), ['degraded', 'ok'])
  t.equal(JSON.parse(readFileSync(file, 'utf8')).journalGeneration, 2, 'a full rewrite, not an append')
  const again = await reload(file)
  t.ok(again.transaction('after'))
  t.equal(again.transaction('queued'), undefined)
  t.equal(again.account(1)!.balance.availableCents, 1000)
})

t.test('while degraded, every write is tried as a rewrite and refused until one succeeds', async t => {
  const { s, fs } = await started(t)
  fs.fail('appendFile', 'journal')
  fs.fail('writeFile', 'pix-sandbox-tmp')
  rename(s, 'ONE')
  await t.rejects(s.commit())
  rename(s, 'TWO')
  await t.rejects(s.commit(), 'a rewrite fails too')
  t.equal(s.account(1)!.name, 'A1')
  t.ok(fs.calls.some(c => c.op === 'writeFile' && c.path.includes('pix-sandbox-tmp')), 'the second try was a rewrite')
  const failedAppend = fs.calls.findIndex(c => c.op === 'appendFile')
  t.same(fs.calls.slice(failedAppend + 1).filter(c => c.op === 'appendFile'), [], 'no append after the failed one')
})

t.test('a degraded store retries on its own and is ok once the disk is back', async t => {
  const { s, fs, file } = await started(t, { retryMs: 10 })
  fs.fail('appendFile', 'journal')
  fs.fail('writeFile', 'pix-sandbox-tmp')
  rename(s, 'LOST')
  await t.rejects(s.commit())
  await new Promise(resolve => setTimeout(resolve, 60))
  t.equal(s.health().status, 'degraded', 'still degraded while the disk fails')
  fs.heal()
  for (let i = 0; i < 100 && s.health().status !== 'ok'; i++) await new Promise(resolve => setTimeout(resolve, 20))
  t.same(s.health(), { status: 'ok' }, 'a retry succeeded without any request')
  t.equal((await reload(file)).account(1)!.name, 'A1')
})

t.test('a compaction never holds a change whose own write then fails', async t => {
  const { s, fs, dir } = await started(t, { compactionFloorBytes: 1 })
  const appendA = fs.hold('appendFile', 'journal-1')
  rename(s, LONG)
  const committedA = s.commit()
  await appendA.reached
  s.transact(() => s.addTransaction(tx('Y')))
  const committedY = s.commit()
  const slowBase = fs.hold('writeFile', 'pix-sandbox-tmp')
  fs.fail('appendFile', 'journal-2')
  appendA.release()
  await committedA
  await slowBase.reached
  await t.rejects(committedY, 'Y was refused')
  t.equal(s.transaction('Y'), undefined)
  slowBase.release()
  await s.flush()
  // The base that compaction wrote is what the disk held when it began: A, not Y.
  const copy = join(tempDir(t), 'copy')
  cpSync(dir, copy, { recursive: true })
  t.equal(JSON.parse(readFileSync(join(copy, 'state.json'), 'utf8')).journalGeneration, 2, 'the compaction wrote its base')
  const copied = await reload(join(copy, 'state.json'))
  t.equal(copied.account(1)!.name, LONG)
  t.equal(copied.transaction('Y'), undefined, 'a refused change does not come back after a restart')
})

t.test('a failed compaction loses nothing: the journals still hold it all', async t => {
  const { s, fs, file, dir } = await started(t, { compactionFloorBytes: 1 })
  fs.fail('writeFile', 'pix-sandbox-tmp', undefined, 1)
  for (let i = 0; i < 5; i++) {
    s.transact(() => s.addTransaction(tx(`t${i}`)))
    await s.commit()
  }
  await s.flush()
  t.same(s.health(), { status: 'ok' }, 'a compaction is housekeeping: its failure refuses no commit')
  const again = await reload(file)
  for (let i = 0; i < 5; i++) t.ok(again.transaction(`t${i}`), `t${i}`)
  t.same(readdirSync(dir).filter(n => n.includes('pix-sandbox-tmp')), [], 'no temp file is left behind')
})

t.test('after a kill tore the journal, the next write rewrites the base instead of appending after the tear', async t => {
  const { s, file } = await started(t)
  s.transact(() => s.addTransaction(tx('t1')))
  await s.commit()
  appendFileSync(`${file}.journal-1`, '["transactions","t2",{"id":"t2","acc')
  const second = new Store({ file })
  await second.open()
  t.equal(second.transaction('t2'), undefined, 'the torn line is dropped')
  second.transact(() => second.addTransaction(tx('t3')))
  await second.commit()
  const third = new Store({ file })
  await third.open()
  t.ok(third.transaction('t1'))
  t.ok(third.transaction('t3'), 'and a third start reads it all')
  t.notOk(existsSync(`${file}.journal-1`), 'the torn journal is gone')
})

t.test('the clock is written with the state and comes back with it', async t => {
  const dir = tempDir(t)
  const file = join(dir, 'state.json')
  let clock: ClockRecord = { now: AT, frozen: true }
  const restored: ClockRecord[] = []
  const port = { record: () => clock, restore: (c: ClockRecord) => { restored.push(c) } }
  const s = new Store({ file })
  await s.open({ clock: port })
  s.transact(() => s.addAccount(account(1)))
  await s.commit()
  t.same((await reload(file)).snapshot().clock, undefined, 'a store without a clock port exports none')
  clock = { now: '2026-03-11T00:00:00.000Z', frozen: false, offsetMs: 1234 }
  s.clockChanged()
  t.equal(s.hasUndurableChanges(), true, 'a clock change is a change')
  await s.commit()
  const opened = await new Store({ file }).open()
  t.same(opened.clock, clock, 'the journal carries it')
  await s.close()
  const folded = JSON.parse(readFileSync(file, 'utf8'))
  t.same(folded.clock, clock, 'and so does the base once folded')
  t.same(restored, [], 'nothing was rolled back')
})
