import t, { type Test } from 'tap'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../server/app.js'
import type { Config } from '../../server/config.js'
import { StartupError } from '../../server/errors/startup.js'
import { Store } from '../../server/store/store.js'
import { T0, certHeader, fixtureAccount } from '../helpers/app.js'
import { FaultyFs } from '../helpers/faulty-fs.js'
import { commandBundle } from '../helpers/command-bundle.js'
import { childEnv } from '../helpers/process.js'
import { ROOT } from '../helpers/reliability.js'
import { spawn } from 'node:child_process'

/**
 * A data file is the sandbox's or it is left alone (docs/reliability.md). `--data` on anything
 * that is not a state this sandbox wrote stops the start with a StartupError (exit code 2, one line
 * naming the file, the reason and what to do) and leaves every file as it was, byte for byte.
 */
const config = (data: string, extra: Partial<Config> = {}): Partial<Config> =>
  ({ data, seed: 'data-file-seed', clock: 'frozen', clockStart: T0, ...extra })

function tempDir (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'pix-data-file-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** Every file of a directory with the hash of its bytes. */
function fingerprint (dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    out[entry.name] = entry.isDirectory() ? 'directory' : createHash('sha256').update(readFileSync(join(dir, entry.name))).digest('hex')
  }
  return out
}

async function refused (t: Test, file: string, reason: RegExp, opts: { dir?: string, extra?: Parameters<typeof buildApp>[0] } = {}): Promise<void> {
  const dir = opts.dir ?? join(file, '..')
  const before = fingerprint(dir)
  let error: unknown
  try {
    const app = await buildApp({ config: config(file), ...opts.extra })
    await app.close()
  } catch (err) {
    error = err
  }
  t.type(error, StartupError, 'the start stops with a StartupError')
  const e = error as StartupError
  t.equal(e.exitCode, 2, 'exit code 2')
  t.notMatch(e.message, /\n/, 'one line')
  t.match(e.message, file, 'naming the file')
  t.match(e.message, reason, 'saying why')
  t.match(e.message, /untouched|permission|choose another|point --data|give the path/i, 'and what to do')
  t.same(fingerprint(dir), before, 'every file of the directory is as it was, byte for byte')
}

t.test('JSON of another shape, an array, null: not the sandbox\'s, left alone', async t => {
  const dir = tempDir(t)
  const cases: Array<[string, string, RegExp]> = [
    ['settings.json', JSON.stringify({ important: 'my app config' }), /not a pix-sandbox state.*no "format": "pix-sandbox\/state" marker/],
    ['array.json', '[]', /the document is an array/],
    ['null.json', 'null', /the document is null/],
    ['number.json', '42', /the document is a number/],
    ['other-format.json', JSON.stringify({ format: 'someone-else', formatVersion: 2 }), /"format" is "someone-else"/],
  ]
  for (const [name, text, reason] of cases) {
    writeFileSync(join(dir, name), text)
    await refused(t, join(dir, name), reason)
  }
})

t.test('a state of another schema version, even 2.5 MB of one, is refused and never overwritten', async t => {
  const dir = tempDir(t)
  const file = join(dir, 'big.json')
  const accounts: Record<string, unknown> = {}
  for (let i = 1; i <= 8000; i++) accounts[i] = { id: i, name: `ACCOUNT ${i}`.padEnd(300, '.') }
  writeFileSync(file, JSON.stringify({ schemaVersion: 2, seq: {}, accounts, transactions: {}, directory: {} }))
  t.ok(readFileSync(file).length > 2_500_000)
  await refused(t, file, /schemaVersion 2 without the format marker/)
  writeFileSync(join(dir, 'none.json'), JSON.stringify({ seq: {}, accounts: {}, transactions: {}, directory: {} }))
  await refused(t, join(dir, 'none.json'), /no "format"/)
  writeFileSync(join(dir, 'nullversion.json'), JSON.stringify({ schemaVersion: null, seq: {}, accounts: {}, transactions: {}, directory: {} }))
  await refused(t, join(dir, 'nullversion.json'), /schemaVersion null/)
})

t.test('a newer format version asks for an upgrade', async t => {
  const dir = tempDir(t)
  const file = join(dir, 'state.json')
  writeFileSync(file, JSON.stringify({ format: 'pix-sandbox/state', formatVersion: 3, seq: {}, accounts: {} }))
  await refused(t, file, /format version 3, written by a newer pix-sandbox.*Upgrade pix-sandbox/)
})

t.test('a truncated document and a corrupt one name the line and column', async t => {
  const dir = tempDir(t)
  writeFileSync(join(dir, 'truncated.json'), '{"format": "pix-sandbox/state",\n "formatVersion": 2,\n "accounts": {')
  await refused(t, join(dir, 'truncated.json'), /ends before its JSON document does \(truncated at line 3, column 15\)/)
  writeFileSync(join(dir, 'corrupt.json'), '{"format": "pix-sandbox/state",\n "formatVersion": 2,\n "accounts": tru,\n "seq": {}}')
  await refused(t, join(dir, 'corrupt.json'), /is not valid JSON \(line 3, column 17\)/)
})

t.test('a directory, an unreadable file, and a directory that cannot be written stop the start', async t => {
  const dir = tempDir(t)
  mkdirSync(join(dir, 'a-directory'))
  await refused(t, join(dir, 'a-directory'), /is a directory; give the path of a file in it/)

  const file = join(dir, 'state.json')
  writeFileSync(file, '{"format": "pix-sandbox/state", "formatVersion": 2, "seq": {}, "accounts": {}, "transactions": {}, "directory": {}}')
  const fs = new FaultyFs()
  fs.fail('readFile', 'state.json', () => Object.assign(new Error('EACCES: permission denied, open'), { code: 'EACCES' }))
  await refused(t, file, /cannot be read \(EACCES: permission denied/, { extra: { store: { fs } } })

  // Under a regular file no directory can be made, whoever runs the test (root ignores permissions).
  const blocker = join(dir, 'plain-file')
  writeFileSync(blocker, 'not a directory')
  await refused(t, join(blocker, 'state.json'), /the directory .*plain-file cannot be written/, { dir })
  const readOnly = new FaultyFs()
  readOnly.fail('writeFile', 'pix-sandbox-probe', () => Object.assign(new Error('EROFS: read-only file system, open'), { code: 'EROFS' }))
  await refused(t, join(dir, 'new.json'), /cannot be written \(EROFS/, { extra: { store: { fs: readOnly } } })
})

t.test('a marked state with a broken record lists what is wrong', async t => {
  const dir = tempDir(t)
  const file = join(dir, 'state.json')
  writeFileSync(file, JSON.stringify({ format: 'pix-sandbox/state', formatVersion: 2, seq: {}, accounts: { 1: { id: 1 } }, transactions: {}, directory: {} }))
  await refused(t, file, /a pix-sandbox state with problems: accounts\/1\/name: /)
})

t.test('a journal damaged before its end stops the start, naming the journal and the line', async t => {
  const dir = tempDir(t)
  const file = join(dir, 'state.json')
  const app = await buildApp({ config: config(file) })
  await app.inject({ method: 'POST', url: '/__sandbox/accounts/1/balance', payload: { credit: 1 } })
  await app.inject({ method: 'POST', url: '/__sandbox/accounts/1/balance', payload: { credit: 1 } })
  // A crash, not a graceful stop: close() would fold the journal into the file.
  const journal = readdirSync(dir).find(n => n.startsWith('state.json.journal-'))!
  const lines = readFileSync(join(dir, journal), 'utf8').split('\n')
  await app.close()
  writeFileSync(join(dir, journal), ['{"broken', ...lines].join('\n'))
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), journalGeneration: Number(journal.split('-').pop()) }))
  await refused(t, file, new RegExp(`${journal} has a damaged line 1 \\(not JSON\\) before its end`))
})

t.test('an empty or a missing file is a first start; a missing directory is created', async t => {
  const dir = tempDir(t)
  writeFileSync(join(dir, 'empty.json'), '')
  for (const file of [join(dir, 'empty.json'), join(dir, 'missing.json'), join(dir, 'new', 'deeper', 'state.json')]) {
    const app = await buildApp({ config: config(file) })
    const res = await app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': certHeader(fixtureAccount.certificate) }, payload: { clientId: fixtureAccount.clientId, clientSecret: fixtureAccount.clientSecret } })
    t.equal(res.statusCode, 201, `${file}: the fixtures are there`)
    await app.close()
    const doc = JSON.parse(readFileSync(file, 'utf8'))
    t.equal(doc.format, 'pix-sandbox/state', 'and the state is written, with its marker, before the sandbox reports ready')
    t.same(readdirSync(join(file, '..')).filter(n => n.includes('pix-sandbox-')), [], 'no probe or temp file is left')
  }
  t.ok(existsSync(join(dir, 'new', 'deeper')))
})

t.test('the previous format (schemaVersion 1) is read, and rewritten in the current one only on the next write', async t => {
  const dir = tempDir(t)
  const file = join(dir, 'state.json')
  // What the sandbox wrote before the format marker: write one with the current code, then take the marker off.
  const first = await buildApp({ config: config(file) })
  await first.inject({ method: 'POST', url: '/__sandbox/accounts/1/balance', payload: { set: 42 } })
  await first.close()
  const { format, formatVersion, clock, rng, ...rest } = JSON.parse(readFileSync(file, 'utf8'))
  t.ok(format && formatVersion && clock && rng)
  writeFileSync(file, JSON.stringify({ schemaVersion: 1, ...rest }))
  const legacy = readFileSync(file)

  const app = await buildApp({ config: config(file) })
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts/1' })).json().balance.available, 42, 'the state is there')
  t.same(readFileSync(file), legacy, 'a start alone changes nothing on disk')
  await app.inject({ method: 'POST', url: '/__sandbox/accounts/1/balance', payload: { credit: 1 } })
  const migrated = JSON.parse(readFileSync(file, 'utf8'))
  t.equal(migrated.format, 'pix-sandbox/state', 'the next write rewrites it in the current format')
  t.equal(migrated.formatVersion, 2)
  t.equal(migrated.schemaVersion, undefined)
  await app.close()
  const again = new Store({ file })
  await again.open()
  t.equal(again.account(1)!.balance.availableCents, 4300)
})

t.test('the real process: exit code 2, one line on stderr, the file untouched', async t => {
  const dir = tempDir(t)
  const file = join(dir, 'settings.json')
  writeFileSync(file, JSON.stringify({ important: 'my app config' }))
  const before = fingerprint(dir)
  const child = spawn(process.execPath, [commandBundle(), '--data', file, '--port', '0'], { cwd: ROOT, env: { ...process.env, ...childEnv() }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr!.on('data', (c: Buffer) => { stderr += c.toString('utf8') })
  const code = await new Promise<number | null>(resolve => child.once('exit', resolve))
  t.equal(code, 2)
  const lines = stderr.trim().split('\n')
  t.equal(lines.length, 1, stderr)
  t.match(lines[0], `pix-sandbox: --data ${file} is not a pix-sandbox state`)
  t.same(fingerprint(dir), before)
})
