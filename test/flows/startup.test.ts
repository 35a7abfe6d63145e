import t, { type Test } from 'tap'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { startMain, type MainProcess } from '../helpers/process.js'

/**
 * The real process at start, as a person meets it: `--version`, each failed start as one line they
 * can act on (no stack trace unless LOG_LEVEL=debug), and the loopback default with the lines that
 * say where it listens and warn when the control plane is open to the network.
 *
 * "Another address of this machine" is 127.0.0.2: a server bound to 127.0.0.1 refuses it and one
 * bound to every interface accepts it, and tests here send traffic only to the loopback range.
 */

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }

const lines = (text: string): string[] => text.split('\n').filter(l => l !== '')

async function ended (proc: MainProcess): Promise<number | null> {
  return (await proc.exit).code
}

/** Starts the process on a free port and waits for its start-up lines; killed at the end of the test. */
async function listening (t: Test, args: string[], env: Record<string, string> = {}): Promise<{ proc: MainProcess, port: number }> {
  const proc = startMain(['--port', '0', ...args], env)
  t.teardown(() => { if (proc.child.exitCode === null) proc.child.kill('SIGKILL') })
  const deadline = Date.now() + 30_000
  for (;;) {
    const port = /listening on http:\/\/[^ ]*?:(\d+)/.exec(proc.stderr())?.[1]
    if (port && lines(proc.stderr()).length >= 2) return { proc, port: Number(port) }
    if (proc.child.exitCode !== null || Date.now() > deadline) throw new Error(`no start-up lines:\n${proc.stderr()}`)
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

/** GET /__sandbox/health on one address: the status, or the connection error's code. */
async function health (address: string, port: number): Promise<number | string> {
  try {
    const res = await request(`http://${address}:${port}/__sandbox/health`, { headersTimeout: 2000, bodyTimeout: 2000 })
    await res.body.dump()
    return res.statusCode
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? String(err)
  }
}

/** Whether 127.0.0.2 can be bound here (Linux routes all of 127.0.0.0/8 to the loopback interface). */
async function secondLoopbackUsable (): Promise<boolean> {
  const probe = createServer()
  return await new Promise(resolve => {
    probe.once('error', () => resolve(false))
    probe.listen(0, '127.0.0.2', () => probe.close(() => resolve(true)))
  })
}

t.test('--version prints the version and exits 0', async t => {
  const proc = startMain(['--version'])
  t.equal(await ended(proc), 0)
  t.equal(proc.stdout(), `pix-sandbox ${version}\n`)
  t.equal(proc.stderr(), '')
})

t.test('an unknown flag: one line naming the closest flag, exit 2', async t => {
  const proc = startMain(['--prot', '8080'])
  t.equal(await ended(proc), 2)
  t.same(lines(proc.stderr()), ['pix-sandbox: unknown flag --prot: did you mean --port? (--help lists every setting)'])
  t.equal(proc.stdout(), '')
})

t.test('an invalid value: one line with the allowed values, exit 2', async t => {
  const proc = startMain([], { SANDBOX_CLOCK: 'sometimes' })
  t.equal(await ended(proc), 2)
  t.same(lines(proc.stderr()), ['pix-sandbox: clock (--clock / SANDBOX_CLOCK): "sometimes" is invalid: expected one of running, frozen (--help lists every setting)'])
  t.notMatch(proc.stderr(), 'Expected union value')
})

t.test('a busy port: one line saying to use --port or PORT, exit 1; the stack trace only at LOG_LEVEL=debug', async t => {
  const holder = createServer()
  await new Promise<void>(resolve => holder.listen(0, '127.0.0.1', resolve))
  t.teardown(() => holder.close())
  const { port } = holder.address() as AddressInfo

  const proc = startMain(['--port', String(port)], { LOG_LEVEL: 'info' })
  t.equal(await ended(proc), 1)
  t.same(lines(proc.stderr()), [`pix-sandbox: port ${port} of 127.0.0.1 is already in use: use --port or PORT to choose another (0 picks a free one)`])

  const debug = startMain(['--port', String(port), '--log-level', 'debug'])
  t.equal(await ended(debug), 1)
  const [first, ...rest] = lines(debug.stderr())
  t.equal(first, `pix-sandbox: port ${port} of 127.0.0.1 is already in use: use --port or PORT to choose another (0 picks a free one)`)
  t.match(rest.join('\n'), /EADDRINUSE[^]*\n\s+at /, 'the stack trace of the failed listen follows')
})

t.test('a fixtures folder that is not there: one line naming the file, exit 2', async t => {
  const proc = startMain(['--fixtures', '/nonexistent/fixtures'])
  t.equal(await ended(proc), 2)
  t.same(lines(proc.stderr()), ['pix-sandbox: fixtures (--fixtures / SANDBOX_FIXTURES): cannot read /nonexistent/fixtures/default.json: no such file or folder'])
})

t.test('an unexpected failure at start: one line, exit 1; the stack trace only at LOG_LEVEL=debug', async t => {
  // A fixtures file of the wrong shape is not checked field by field: it fails where it is first used.
  const dir = mkdtempSync(join(tmpdir(), 'pix-fixtures-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'default.json'), '{}')
  const proc = startMain(['--fixtures', dir])
  t.equal(await ended(proc), 1)
  t.same(lines(proc.stderr()), ['pix-sandbox: failed to start: TypeError: Cannot read properties of undefined (reading \'map\') (LOG_LEVEL=debug prints the stack trace)'])

  // Started as `npm start` starts it, so that the trace names the source file.
  const debug = startMain(['--fixtures', dir], { LOG_LEVEL: 'debug' }, { npmStart: true })
  t.equal(await ended(debug), 1)
  t.match(debug.stderr(), /^pix-sandbox: failed to start: TypeError: Cannot read properties of undefined \(reading 'map'\)\nTypeError: [^\n]*\n\s+at .*fixtures\.ts/)
})

t.test('by default only this machine can connect, and the lines say where it listens, with no warning', async t => {
  const { proc, port } = await listening(t, [])
  t.same(lines(proc.stderr()), [
    `pix-sandbox ${version} listening on http://127.0.0.1:${port} (seed ${/seed (\w+)/.exec(proc.stderr())?.[1]}, state in memory)`,
    `pix-sandbox: dashboard http://127.0.0.1:${port}/dashboard, API docs http://127.0.0.1:${port}/docs`,
  ])
  t.equal(await health('127.0.0.1', port), 200)
  if (await secondLoopbackUsable()) {
    t.equal(await health('127.0.0.2', port), 'ECONNREFUSED', 'another address of this machine is refused')
  } else {
    t.comment('127.0.0.2 cannot be bound on this machine: the bound address is checked instead')
  }
  const listened = proc.stdout().split('\n').filter(l => l.startsWith('{')).map(l => JSON.parse(l) as { addresses?: string[] }).find(l => l.addresses)
  t.same(listened?.addresses, [`http://127.0.0.1:${port}`], 'the JSON log names the same address')
})

t.test('HOST=0.0.0.0: every interface address is listed and reachable, with one warning line', async t => {
  const { proc, port } = await listening(t, [], { HOST: '0.0.0.0' })
  const ipv4 = Object.values(networkInterfaces()).flatMap(infos => infos ?? []).filter(i => i.family === 'IPv4').map(i => i.address)
  t.ok(ipv4.length >= 1)
  const [listeningLine, dashboardLine, ...rest] = lines(proc.stderr())
  for (const address of ipv4) t.match(listeningLine, `http://${address}:${port}`, `lists ${address}`)
  t.equal(dashboardLine, `pix-sandbox: dashboard http://127.0.0.1:${port}/dashboard, API docs http://127.0.0.1:${port}/docs`)
  t.same(rest, ['pix-sandbox: warning: listening beyond this machine (0.0.0.0) with no SANDBOX_ADMIN_TOKEN: anyone on the network can use the control plane (/__sandbox), with every account\'s credentials and keys; set SANDBOX_ADMIN_TOKEN (--admin-token) or listen on 127.0.0.1 (HOST, --host)'])
  if (await secondLoopbackUsable()) t.equal(await health('127.0.0.2', port), 200, 'another address of this machine is served')
  else t.comment('127.0.0.2 cannot be bound on this machine: the listed addresses are checked instead')
  const warning = proc.stdout().split('\n').filter(l => l.startsWith('{')).map(l => JSON.parse(l) as { level: number, msg: string }).find(l => l.level === 40)
  t.match(warning?.msg, 'anyone on the network can use the control plane', 'the JSON log carries the warning too')
})

t.test('HOST=0.0.0.0 with SANDBOX_ADMIN_TOKEN: no warning', async t => {
  const { proc } = await listening(t, ['--host', '0.0.0.0'], { SANDBOX_ADMIN_TOKEN: 'a-long-admin-token' })
  t.equal(lines(proc.stderr()).length, 2, 'the listening and dashboard lines only')
  t.notMatch(proc.stderr() + proc.stdout(), 'anyone on the network')
})
