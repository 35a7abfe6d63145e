import t, { type Test } from 'tap'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { StartupError } from '../../server/errors/startup.js'
import { Store } from '../../server/store/store.js'
import { accountRecord as account } from './services/harness.js'

/**
 * A data file and its journal belong together (docs/reliability.md, "A data file and its journal"):
 * every base carries a `baseId`, every batch of its journal names it, and a journal that does not
 * continue the base beside it is set aside, not replayed.
 */
function tempFile (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'pix-pairing-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return join(dir, 'state.json')
}

const files = (file: string): string[] => readdirSync(join(file, '..')).sort()

async function opened (file: string): Promise<{ store: Store, notice?: string }> {
  const store = new Store({ file })
  const result = await store.open()
  return { store, notice: result.notice }
}

/** A file holding account 1, closed (the journal folded in): what a graceful stop leaves. */
async function stopped (file: string): Promise<void> {
  const s = new Store({ file })
  await s.open()
  s.transact(() => s.addAccount(account(1)))
  await s.close()
}

t.test('a run writes a new base before its first journal line, and every batch names that base', async t => {
  const file = tempFile(t)
  await stopped(file)
  const before = JSON.parse(readFileSync(file, 'utf8'))
  t.match(before.baseId, /^[0-9a-f]{16}$/)
  const { store } = await opened(file)
  store.transact(() => store.addAccount(account(2)))
  await store.commit()
  const base = JSON.parse(readFileSync(file, 'utf8'))
  t.not(base.baseId, before.baseId, 'the first write of the run is a new base')
  t.equal(base.journalGeneration, before.journalGeneration + 1)
  store.transact(() => store.addAccount(account(3)))
  await store.commit()
  const lines = readFileSync(`${file}.journal-${base.journalGeneration}`, 'utf8').trim().split('\n').map(l => JSON.parse(l))
  t.same(lines.at(-1).slice(0, 2), ['seq', null])
  t.same(lines.at(-1)[3], { base: base.baseId }, 'the batch names the base it continues')
})

t.test('a journal that continues another base is set aside, and the state is the file\'s', async t => {
  const file = tempFile(t)
  await stopped(file)
  const copy = readFileSync(file)
  const { store } = await opened(file)
  // The run's first write is its base (account 2), the next a journal line (account 3).
  store.transact(() => store.addAccount(account(2)))
  await store.commit()
  store.transact(() => store.addAccount(account(3)))
  await store.commit()
  const journal = files(file).find(n => /^state\.json\.journal-\d+$/.test(n))!
  // The process is killed here (no close), and the copy put back.
  writeFileSync(file, copy)
  const again = await opened(file)
  t.same(Object.keys(again.store.data.accounts), ['1'])
  t.notOk(existsSync(join(file, '..', journal)), 'the journal is no longer where a start reads it')
  const aside = files(file).filter(n => n.startsWith(`${journal}.orphaned-`))
  t.equal(aside.length, 1)
  t.match(readFileSync(join(file, '..', aside[0]), 'utf8'), /^\["accounts","3",.*\n\["seq",/, 'kept whole, for whoever wants it')
  t.match(again.notice, `--data ${file}: ${journal} did not continue the file (the file was replaced, e.g. restored from a copy): set aside as ${aside[0]}; the state is the file's`)
  again.store.transact(() => again.store.addAccount(account(2, { name: 'AFTER' })))
  await again.store.commit()
  const third = await opened(file)
  t.equal(third.store.account(2)?.name, 'AFTER', 'the sandbox goes on from the copy')
  t.equal(third.notice, undefined)
})

t.test('a journal a compaction started, beside a copy of the base before it without that base\'s journal, is set aside', async t => {
  const file = tempFile(t)
  const s = new Store({ file, compactionFloorBytes: 1 })
  await s.open()
  s.transact(() => s.addAccount(account(1)))
  await s.commit()
  const copy = readFileSync(file)
  const next = JSON.parse(copy.toString()).journalGeneration + 1
  // Until the compaction has landed (the copy's journal is gone) and its journal holds a batch.
  for (let i = 2; i < 20 && !existsSync(`${file}.journal-${next}`); i++) {
    s.transact(() => s.addAccount(account(i)))
    await s.flush()
  }
  const journal = readFileSync(`${file}.journal-${next}`, 'utf8').trim().split('\n').map(l => JSON.parse(l))
  t.same(journal.at(-1)[3], { base: JSON.parse(readFileSync(file, 'utf8')).baseId, after: JSON.parse(copy.toString()).baseId }, 'it names the new base, and the one before')
  writeFileSync(file, copy)
  const again = await opened(file)
  t.same(Object.keys(again.store.data.accounts), ['1'])
  t.ok(again.notice)
})

t.test('a base and journals written before journals named their base are read together as before', async t => {
  const file = tempFile(t)
  const { baseId, ...legacy } = { format: 'pix-sandbox/state', formatVersion: 2, journalGeneration: 4, baseId: 'x', seq: { account: 1 }, accounts: { 1: account(1) }, transactions: {}, directory: {} }
  t.ok(baseId)
  writeFileSync(file, JSON.stringify(legacy))
  writeFileSync(`${file}.journal-4`, [JSON.stringify(['accounts', '2', account(2)]), JSON.stringify(['seq', null, { account: 2 }]), ''].join('\n'))
  const { store, notice } = await opened(file)
  t.same(Object.keys(store.data.accounts), ['1', '2'])
  t.equal(notice, undefined)

  // A journal without the name beside a base that has one was not written on that base.
  store.transact(() => store.addAccount(account(3)))
  await store.commit()
  writeFileSync(`${file}.journal-${JSON.parse(readFileSync(file, 'utf8')).journalGeneration}`, [JSON.stringify(['accounts', '9', account(9)]), JSON.stringify(['seq', null, { account: 9 }]), ''].join('\n'))
  const again = await opened(file)
  t.same(Object.keys(again.store.data.accounts), ['1', '2', '3'])
  t.ok(again.notice)
})

t.test('a start refused for its file sets nothing aside', async t => {
  const file = tempFile(t)
  await stopped(file)
  writeFileSync(`${file}.journal-99`, [JSON.stringify(['accounts', '2', account(2)]), JSON.stringify(['seq', null, { account: 2 }, { base: 'another' }]), ''].join('\n'))
  const doc = JSON.parse(readFileSync(file, 'utf8'))
  doc.accounts['1'].limits.dailyCents = 2 ** 53
  writeFileSync(file, JSON.stringify(doc))
  const before = files(file)
  const refused = await new Store({ file }).open().catch((err: unknown) => err)
  t.type(refused, StartupError)
  t.match((refused as Error).message, /a pix-sandbox state with problems: accounts\/1\/limits\/dailyCents: /)
  t.same(files(file), before, 'every file where it was')
})
