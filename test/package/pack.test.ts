import t, { type Test } from 'tap'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { childEnv } from '../helpers/process.js'

/**
 * The package as an integrator gets it: `npm pack` (prepack builds dist/), the tarball installed into
 * a fresh project outside this repository (its dependencies from the npm cache or registry), and from
 * there the command, the in-process sandbox, the typed client, the types, and the README's examples
 * run by their own test runners. Slow by nature (a build and an install): one file, run once.
 */
t.setTimeout(15 * 60_000)

const root = fileURLToPath(new URL('../..', import.meta.url))
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string, devDependencies: Record<string, string> }
const work = mkdtempSync(join(tmpdir(), 'pix-pack-'))
const app = join(work, 'app')
mkdirSync(app)
t.teardown(() => rmSync(work, { recursive: true, force: true }))

interface Run { code: number | null, signal: string | null, stdout: string, stderr: string, ms: number }

/** Runs a command to its end (killed after `timeoutMs`: a process that does not exit by itself fails). */
function run (cmd: string, args: string[], opts: { cwd: string, env?: Record<string, string>, timeoutMs?: number }): Promise<Run> {
  const started = performance.now()
  return new Promise(resolve => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...childEnv(), ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
    const killer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000)
    child.on('close', (code, signal) => {
      clearTimeout(killer)
      resolve({ code, signal, stdout, stderr, ms: Math.round(performance.now() - started) })
    })
  })
}

const ok = (t: Test, r: Run, what: string): void => {
  t.equal(r.signal, null, `${what} ended by itself`)
  t.equal(r.code, 0, `${what} exited 0`, r.code === 0 ? {} : { stdout: r.stdout.slice(-3000), stderr: r.stderr.slice(-3000) })
}

let tarball = ''
let installed = false

t.test('npm pack builds dist/ and ships dist, fixtures, the dashboard, bin, README and LICENSE only', async t => {
  const res = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, timeoutMs: 300_000 })
  ok(t, res, 'npm pack')
  const [packed] = JSON.parse(res.stdout.slice(res.stdout.indexOf('['))) as Array<{ filename: string, size: number, entryCount: number, files: Array<{ path: string }> }>
  tarball = join(work, packed.filename)
  const paths = packed.files.map(f => f.path)
  const unexpected = paths.filter(p => !/^(dist\/|fixtures\/|server\/dashboard\/|bin\/pix-sandbox\.js$|package\.json$|README\.md$|LICENSE$)/.test(p))
  t.same(unexpected, [], 'nothing but what the package needs')
  for (const needed of ['dist/server/index.js', 'dist/server/index.d.ts', 'dist/client/index.js', 'dist/client/index.d.ts', 'dist/server/main.js',
    'dist/server/healthcheck.js', 'dist/server/webhooks/sender-worker.js', 'fixtures/default.json', 'fixtures/certs/default-client.crt.pem',
    'server/dashboard/index.html', 'LICENSE', 'README.md']) {
    t.ok(paths.includes(needed), `ships ${needed}`)
  }
  t.notOk(paths.some(p => p.endsWith('.ts') && !p.endsWith('.d.ts')), 'no TypeScript sources')
  t.comment(`packed ${packed.entryCount} entries, ${(packed.size / 1024).toFixed(0)} kB`)
})

t.test('the tarball installs into an empty project, and its command answers --version', async t => {
  t.ok(tarball, 'packed')
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
  // Test runners for the README's examples: vitest from the registry or cache (it cannot be a
  // development dependency of this repository: see CONTRIBUTING), tap linked from this checkout.
  const res = await run('npm', ['install', tarball, `@types/node@${pkg.devDependencies['@types/node']}`, 'vitest@^3.2.7', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app, timeoutMs: 300_000 })
  ok(t, res, 'npm install')
  symlinkSync(join(root, 'node_modules', 'tap'), join(app, 'node_modules', 'tap'))
  installed = res.code === 0
  t.comment(`installed in ${res.ms} ms`)

  const version = await run('npx', ['pix-sandbox', '--version'], { cwd: app })
  ok(t, version, 'npx pix-sandbox --version')
  t.equal(version.stdout, `pix-sandbox ${pkg.version}\n`)

  const dist = join(app, 'node_modules', 'pix-sandbox', 'dist', 'client')
  for (const file of readdirSync(dist).filter(f => f.endsWith('.js'))) {
    const imports = [...readFileSync(join(dist, file), 'utf8').matchAll(/^(?:import|export)\b[^;]*?from\s+'([^']+)'/gm)].map(m => m[1])
    t.same(imports.filter(i => !i.startsWith('./')), [], `the compiled client (${file}) imports only its own files`)
  }
})

t.test('from the installed package: startSandbox, createClient, an account, a cash-out, its CashOut webhook, and the process exits on its own', async t => {
  if (!installed) return t.fail('the package did not install')
  writeFileSync(join(app, 'consumer.mjs'), `
import { createServer } from 'node:http'
import { startSandbox } from 'pix-sandbox'
import { createClient } from 'pix-sandbox/client'

const received = []
const receiver = createServer((req, res) => { let body = ''; req.on('data', d => { body += d }); req.on('end', () => { received.push(JSON.parse(body)); res.end('ok') }) })
await new Promise(resolve => receiver.listen(0, '127.0.0.1', resolve))

const started = performance.now()
const sandbox = await startSandbox({ port: 0, seed: 'pack', clock: 'frozen' })
const startMs = Math.round(performance.now() - started)
const account = await sandbox.createAccount({ balance: 100, providerGroup: 'A' })
const client = createClient({ baseUrl: sandbox.url, clientId: account.clientId, clientSecret: account.clientSecret, certificate: account.certificate })
await client.sandbox.registerWebhook({ accountId: account.accountId, eventType: 'cash_out', url: 'http://127.0.0.1:' + receiver.address().port + '/webhooks' })
const payout = await client.cashOut({ value: 10, externalId: 'pack-1', details: { key: 'maria@example.com', keyType: 'EMAIL', name: 'Maria', document: '52998224725' } })
await sandbox.advanceClock(60_000)
const delivery = await sandbox.waitForDelivery({ accountId: account.accountId, eventType: 'cash_out', transactionId: payout.transactionId, status: 'delivered', timeoutMs: 10_000 })
const dashboard = (await fetch(sandbox.url + '/dashboard')).status
const balance = await client.balance()
await sandbox.close()
receiver.close()
process.stdout.write(JSON.stringify({ url: sandbox.url, token: account.token.slice(0, 3), status: payout.status, delivery: delivery.status, webhook: delivery.body, received: received.length, dashboard, balance, startMs }))
`)
  const res = await run(process.execPath, ['consumer.mjs'], { cwd: app, timeoutMs: 60_000 })
  ok(t, res, 'the consumer')
  const out = JSON.parse(res.stdout) as Record<string, unknown>
  t.match(out, {
    url: /^http:\/\/127\.0\.0\.1:\d+$/,
    token: 'eyJ',
    status: 'PENDING',
    delivery: 'delivered',
    webhook: { status: 'CONFIRMED', externalId: 'pack-1', finalAmount: Number },
    received: 1,
    dashboard: 200,
    balance: { netBalance: 89.5, blockedBalance: 0 },
  })
  t.comment(`startSandbox took ${String(out.startMs)} ms (first in the process: module loading included)`)
})

t.test('a TypeScript consumer type-checks against the installed types, and a wrong call does not', async t => {
  if (!installed) return t.fail('the package did not install')
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, include: ['consumer.ts'] }))
  writeFileSync(join(app, 'consumer.ts'), `
import { startSandbox, type RunningSandbox, type SandboxAccount, type SandboxOptions } from 'pix-sandbox'
import { createClient, PixApiError, type Delivery, type PayoutAccepted } from 'pix-sandbox/client'

const options: SandboxOptions = { port: 0, seed: 'ci', clock: 'frozen', settlementDelayMs: 20 }
// @ts-expect-error the clock is 'running' or 'frozen'
const stopped: SandboxOptions = { clock: 'stopped' }
// @ts-expect-error not a setting
const colour: SandboxOptions = { colour: 'blue' }
const sandbox: RunningSandbox = await startSandbox(options)
const account: SandboxAccount = await sandbox.createAccount({ balance: 100, providerGroup: 'A' })
// @ts-expect-error provider groups are A to E
await sandbox.createAccount({ providerGroup: 'Z' })
const token: string = account.token
const client = createClient({ baseUrl: sandbox.url, clientId: account.clientId, clientSecret: account.clientSecret, certificate: account.certificate })
const payout: PayoutAccepted = await client.cashOut({ value: 10, externalId: 'x', details: { key: 'maria@example.com', keyType: 'EMAIL', name: 'Maria', document: '52998224725' } })
const status: 'PENDING' | 'CONFIRMED' | 'ERROR' = payout.status
// @ts-expect-error value is a number of BRL
await client.cashOut({ value: '10', externalId: 'x', details: { key: 'maria@example.com', keyType: 'EMAIL', name: 'Maria', document: '52998224725' } })
// @ts-expect-error keyType is DOCUMENT, EMAIL, PHONE or RANDOM
await client.cashOut({ value: 10, externalId: 'x', details: { key: 'maria@example.com', keyType: 'MAIL', name: 'Maria', document: '52998224725' } })
const delivery: Delivery = await sandbox.waitForDelivery({ eventType: 'cash_out', status: 'delivered' })
// @ts-expect-error no such event type
await client.sandbox.waitForDelivery({ eventType: 'cashout' })
const netBalance: number = (await client.balance()).netBalance
const transfer = await client.centralBank.dictTransfer({ pixKey: '52998224725', payment: { currency: 'BRL', amount: 1 } })
const transferId: number = transfer.id
try {
  await client.sandbox.account(999)
} catch (err) {
  if (err instanceof PixApiError) {
    const code: string = err.code
    const statusCode: number = err.statusCode
    void [code, statusCode]
  }
}
await sandbox.close()
void [stopped, colour, token, status, delivery, netBalance, transferId]
`)
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
  const res = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app })
  ok(t, res, 'tsc over the consumer')

  writeFileSync(join(app, 'wrong.ts'), 'import { startSandbox } from \'pix-sandbox\'\nawait startSandbox({ port: \'8080\' })\n')
  const wrong = await run(process.execPath, [tsc, '--ignoreConfig', '--noEmit', '--strict', '--module', 'NodeNext', '--target', 'ES2022', '--skipLibCheck', 'wrong.ts'], { cwd: app })
  t.equal(wrong.code, 2, 'a port given as text is a type error', { stdout: wrong.stdout, stderr: wrong.stderr })
  t.match(wrong.stdout, /wrong\.ts\(2,\d+\): error TS2322/)
})

/** The README's examples, copied from examples/ (test/unit/readme.test.ts keeps the README equal to them). */
const example = (name: string): void => writeFileSync(join(app, name), readFileSync(join(root, 'examples', name)))

t.test('the README\'s node:test, vitest and tap examples pass with their own runners', async t => {
  if (!installed) return t.fail('the package did not install')
  for (const name of ['node-test.test.mjs', 'vitest.test.mjs', 'tap.test.mjs']) example(name)
  const nodeTest = await run(process.execPath, ['--test', 'node-test.test.mjs'], { cwd: app })
  ok(t, nodeTest, 'node --test')
  t.match(nodeTest.stdout, /# pass 2\n# fail 0/)
  const vitest = await run(process.execPath, [join('node_modules', 'vitest', 'vitest.mjs'), 'run', 'vitest.test.mjs'], { cwd: app })
  ok(t, vitest, 'vitest run')
  t.match(vitest.stdout, /Tests\s+1 passed/)
  // tap is this checkout's, and so is the Test class it builds from its plugin list: the example runs
  // with this repository's list (.taprc), or tap would rebuild that class for the other test files.
  const plugins = (parse(readFileSync(join(root, '.taprc'), 'utf8')) as { plugin?: string[] }).plugin ?? []
  const tap = await run(process.execPath, [join('node_modules', 'tap', 'dist', 'esm', 'run.mjs'), ...plugins.map(p => `--plugin=${p}`), '--disable-coverage', '--reporter=tap', 'tap.test.mjs'], { cwd: app })
  ok(t, tap, 'tap')
  t.match(tap.stdout, /# \{ total: 1, pass: 1 \}|ok 1 - tap\.test\.mjs/)
})

t.test('`npx pix-sandbox` serves from dist, and the README\'s test against a running sandbox passes', async t => {
  if (!installed) return t.fail('the package did not install')
  example('container.test.mjs')
  const started = performance.now()
  // A process group of its own: npx and the server it starts end together.
  const server = spawn('npx', ['pix-sandbox', '--port', '0', '--seed', 'ci'], { cwd: app, detached: true, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...childEnv() }, stdio: ['ignore', 'ignore', 'pipe'] })
  const stop = (): void => { try { process.kill(-server.pid!, 'SIGTERM') } catch { /* already gone */ } }
  const exited = new Promise<void>(resolve => server.on('exit', () => resolve()))
  t.teardown(stop)
  let stderr = ''
  const url = await new Promise<string>((resolve, reject) => {
    server.stderr.on('data', (d: Buffer) => {
      stderr += d.toString()
      const listening = /listening on (https?:\/\/[\d.]+:\d+)/.exec(stderr)
      if (listening) resolve(listening[1])
    })
    server.on('exit', () => reject(new Error(`npx pix-sandbox exited: ${stderr}`)))
  }).catch((err: Error) => err.message)
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+$/, 'listening')
  t.equal((await fetch(`${url}/__sandbox/health`)).status, 200)
  t.comment(`npx pix-sandbox: ${Math.round(performance.now() - started)} ms to healthy`)

  const res = await run(process.execPath, ['--test', 'container.test.mjs'], { cwd: app, env: { PIX_BASE_URL: url } })
  ok(t, res, 'node --test container.test.mjs')
  t.match(res.stdout, /# pass 1\n# fail 0/)
  stop()
  await exited
  let gone = false
  for (let i = 0; i < 100 && !gone; i++) gone = await fetch(`${url}/__sandbox/health`).then(() => new Promise<boolean>(resolve => setTimeout(() => resolve(false), 100)), () => true)
  t.ok(gone, 'SIGTERM ended the server too')
})
