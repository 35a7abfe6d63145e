import t, { type Test } from 'tap'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { NodeFs } from '../../server/store/fs.js'
import { Store } from '../../server/store/store.js'

/** The store's node:fs keeps the journal it appends to open: what that must never cost. */

const openFiles = (): number => readdirSync('/proc/self/fd').length

function tempDir (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'pix-store-fs-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('appends land in order, in a file that stays open between them', async t => {
  const path = join(tempDir(t), 'state.json.journal-1')
  const fs = new NodeFs()
  const before = openFiles()
  await fs.appendFile(path, 'one\n')
  await fs.appendFile(path, 'two\n')
  await fs.appendFile(path, 'três ✓\n')
  t.equal(readFileSync(path, 'utf8'), 'one\ntwo\ntrês ✓\n', 'every byte of every append, multi-byte characters included')
  t.equal(openFiles(), before + 1, 'one descriptor for the journal, not one per append')
  fs.close()
  t.equal(openFiles(), before, 'closing lets it go')
})

t.test('a removed journal is let go: the next append to that path makes a new file, never writes into the deleted one', async t => {
  const path = join(tempDir(t), 'state.json.journal-1')
  const fs = new NodeFs()
  const before = openFiles()
  await fs.appendFile(path, 'old\n')
  await fs.remove(path)
  t.notOk(existsSync(path))
  t.equal(openFiles(), before, 'removing the file closes it')
  await fs.appendFile(path, 'new\n')
  t.equal(readFileSync(path, 'utf8'), 'new\n')
  fs.close()
})

t.test('a failed append is reported, and the next one opens the file again', async t => {
  const dir = tempDir(t)
  const fs = new NodeFs()
  await t.rejects(fs.appendFile(join(dir, 'missing', 'state.json.journal-1'), 'x\n'), { code: 'ENOENT' })
  const before = openFiles()
  // /dev/full opens, then refuses every write as a full disk would.
  await t.rejects(fs.appendFile('/dev/full', 'x\n'), { code: 'ENOSPC' })
  t.equal(openFiles(), before, 'the file a write failed on is not kept open')
  const path = join(dir, 'state.json.journal-1')
  await fs.appendFile(path, 'y\n')
  t.equal(readFileSync(path, 'utf8'), 'y\n')
  fs.close()
})

t.test('a closed store holds no file open, whatever it wrote', async t => {
  const file = join(tempDir(t), 'state.json')
  const before = openFiles()
  const store = new Store({ file })
  await store.open()
  for (let i = 0; i < 5; i++) {
    store.transact(() => { store.nextSeq('things') })
    await store.commit()
  }
  t.ok(readdirSync(join(file, '..')).some(n => n.includes('journal')), 'the changes went to a journal')
  await store.close()
  t.equal(openFiles(), before, 'no descriptor left behind')
  t.equal(JSON.parse(readFileSync(file, 'utf8')).seq.things, 5, 'and the base holds every change')
})
