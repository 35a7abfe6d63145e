import t from 'tap'
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { call, startProcess, type SandboxProcess } from '../helpers/reliability.js'

/**
 * A data file and its journal belong together (docs/reliability.md): a copy of the file taken while
 * the sandbox was stopped, put back after a later run left a journal beside it, is the copy's state.
 * The journal of that later run is set aside under a name that says so, and the start says it did.
 */
const ARGS = ['--seed', 'restored-copy-seed', '--log-format', 'json']

async function accountIds (p: SandboxProcess): Promise<number[]> {
  const res = await call(p.base, 'GET', '/__sandbox/accounts')
  return res.json().accounts.map((a: { accountId: number }) => a.accountId)
}

t.test('stop, copy the file, start, add accounts 3 and 4, kill -9, put the copy back, start: accounts 1 and 2', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-restored-copy-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'state.json')
  const procs: SandboxProcess[] = []
  t.teardown(() => { for (const p of procs) p.kill('SIGKILL') })
  const start = async (): Promise<SandboxProcess> => {
    const p = await startProcess(['--data', file, ...ARGS])
    procs.push(p)
    return p
  }

  const first = await start()
  t.equal((await call(first.base, 'POST', '/__sandbox/accounts', { body: {} })).status, 201)
  first.kill('SIGTERM')
  t.equal((await first.exited).code, 0, 'a graceful stop')
  const backup = join(dir, 'backup.json')
  copyFileSync(file, backup)

  const second = await start()
  t.same(await accountIds(second), [1, 2])
  for (const id of [3, 4]) {
    const res = await call(second.base, 'POST', '/__sandbox/accounts', { body: {} })
    t.equal(res.json().accountId, id, `account ${id} is acknowledged`)
  }
  second.kill('SIGKILL')
  await second.exited
  t.ok(readdirSync(dir).some(n => /^state\.json\.journal-\d+$/.test(n)), 'the killed run left a journal')
  copyFileSync(backup, file)

  const third = await start()
  t.same(await accountIds(third), [1, 2], 'the state is the copy\'s: the later run\'s journal is not replayed over it')
  const setAside = readdirSync(dir).filter(n => n.startsWith('state.json.journal-'))
  t.equal(setAside.length, 1, setAside.join(', '))
  t.match(setAside[0], /^state\.json\.journal-\d+\.orphaned-\d{8}T\d{9}Z$/, 'the journal is set aside under a name that says so')
  const lines = third.output().split('\n').filter(l => l.includes('set aside'))
  t.equal(lines.filter(l => l.startsWith('pix-sandbox: warning:')).length, 1, 'one line on stderr says what was done')
  t.match(lines.find(l => l.startsWith('pix-sandbox: warning:')), `--data ${file}: ${setAside[0].replace(/\.orphaned-.*/, '')} did not continue the file`)
  t.match(lines.find(l => l.startsWith('pix-sandbox: warning:')), `set aside as ${setAside[0]}; the state is the file's`)

  // And the sandbox goes on from the copy: a new account takes the next id after the copy's.
  t.equal((await call(third.base, 'POST', '/__sandbox/accounts', { body: {} })).json().accountId, 3)
  third.kill('SIGKILL')
  await third.exited
  const fourth = await start()
  t.same(await accountIds(fourth), [1, 2, 3], 'and a restart after a kill finds what it acknowledged')
  t.equal(fourth.output().includes('set aside'), false, 'with nothing more to set aside')
})
