import t, { type Test } from 'tap'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect, createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError, PixApiError, startSandbox, type RunningSandbox, type SandboxOptions } from '../../server/index.js'
import { defaultConfig } from '../../server/config.js'
import { generateClientCertificate } from '../../server/auth/certificates.js'
import { StartupError } from '../../server/errors/startup.js'
import { SHUTDOWN_GRACE_MS } from '../../server/serve.js'
import { childEnv } from '../helpers/process.js'
import { startReceiver } from '../helpers/receiver.js'

/**
 * startSandbox, the package's in-process API (server/index.ts): a real server on 127.0.0.1 inside
 * the test process, every command-line setting as an option, a ready account with a token, the clock
 * in the test's hands, and a close that leaves nothing running.
 */

const cashOut = (externalId: string) => ({ value: 10, externalId, details: { key: 'pix@example.com', keyType: 'EMAIL' as const, name: 'Fulano', document: '52998224725' } })

async function started (t: Test, options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ port: 0, ...options })
  t.teardown(() => sandbox.close())
  return sandbox
}

t.test('listens on 127.0.0.1 on a free port and answers as the gateway', async t => {
  const sandbox = await started(t, { seed: 'ci' })
  t.match(sandbox.url, /^http:\/\/127\.0\.0\.1:\d+$/)
  t.equal(sandbox.url, `http://127.0.0.1:${sandbox.port}`)
  t.not(sandbox.port, 0)
  t.equal(sandbox.seed, 'ci')
  const health = await (await fetch(`${sandbox.url}/__sandbox/health`)).json() as { status: string, seed: string }
  t.same(health.status, 'ok')
  t.equal(health.seed, 'ci')
})

t.test('options left out take the command line\'s defaults, but the log is silent', async t => {
  const sandbox = await started(t)
  t.same({ ...sandbox.config, port: 8080, seed: undefined }, { ...defaultConfig(), logLevel: 'silent', seed: undefined })
  t.match(sandbox.seed, /^[0-9a-f]{12}$/, 'a random seed, reported')
  const logging = await started(t, { logLevel: 'fatal' })
  t.equal(logging.config.logLevel, 'fatal', 'a log level is an option like the others')
  t.equal((await fetch(`${logging.url}/__sandbox/health`)).status, 200)
})

t.test('createAccount hands back the credentials, a valid bearer token and a client signed in as the account', async t => {
  const sandbox = await started(t, { clock: 'frozen' })
  const acct = await sandbox.createAccount({ balance: 100, providerGroup: 'A' })
  t.match(acct, { accountId: 2, clientId: String, clientSecret: String, certificate: /BEGIN CERTIFICATE/, privateKey: /BEGIN PRIVATE KEY/, token: /^ey/, providerGroup: 'A' })
  const res = await fetch(`${sandbox.url}/balance`, { headers: { authorization: `Bearer ${acct.token}` } })
  t.equal(res.status, 200)
  t.match(await res.json(), { netBalance: 100, blockedBalance: 0 })
  t.match(await acct.client.balance(), { netBalance: 100 })
  t.equal((await sandbox.createAccount()).accountId, 3, 'each call a new isolated account')
})

t.test('advanceClock runs what falls due: a cash-out settles and its CashOut webhook reaches the receiver', async t => {
  const sandbox = await started(t, { clock: 'frozen', settlementDelayMs: 1000 })
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  const acct = await sandbox.createAccount({ balance: 100 })
  await acct.client.sandbox.registerWebhook({ accountId: acct.accountId, eventType: 'cash_out', url: receiver.url })
  const out = await acct.client.cashOut(cashOut('settle-1'))
  t.equal(out.status, 'PENDING')
  t.equal((await sandbox.advanceClock(999)).pendingJobs, 1, 'not due yet')
  t.equal((await sandbox.client.sandbox.transaction(out.transactionId)).status, 'PENDING')
  await sandbox.advanceClock(1)
  t.equal((await sandbox.client.sandbox.transaction(out.transactionId)).status, 'CONFIRMED')
  const delivery = await sandbox.waitForDelivery({ accountId: acct.accountId, eventType: 'cash_out', transactionId: out.transactionId, status: 'delivered', timeoutMs: 15000 })
  t.match(delivery.body, { transactionId: out.transactionId, status: 'CONFIRMED' })
  t.equal(receiver.requests.length, 1)
  t.match(await acct.client.balance(), { netBalance: 89.5, blockedBalance: 0 })
})

t.test('reset puts everything back without a restart; one account alone when named', async t => {
  const sandbox = await started(t, { clock: 'frozen' })
  const a = await sandbox.createAccount({ balance: 50 })
  const b = await sandbox.createAccount({ balance: 70 })
  await sandbox.client.sandbox.changeBalance(a.accountId, { set: 1 })
  await sandbox.client.sandbox.changeBalance(b.accountId, { set: 2 })
  await sandbox.reset(a.accountId)
  t.equal((await sandbox.client.sandbox.account(a.accountId)).balance.available, 50)
  t.equal((await sandbox.client.sandbox.account(b.accountId)).balance.available, 2, 'the other account is untouched')
  await sandbox.reset()
  t.same((await sandbox.client.sandbox.accounts()).accounts.map(x => x.accountId), [1], 'only the fixture account is left')
  // Dates of the past on a sandbox already running: a full reset that starts its clock there.
  await sandbox.reset({ clockStart: '2026-03-10T12:00:00-03:00', clock: 'frozen' })
  t.match(await sandbox.client.sandbox.clock(), { now: '2026-03-10T15:00:00.000Z', frozen: true })
})

t.test('a bad option stops the start with every problem named, as the flags would', async t => {
  const err = await startSandbox({ port: -1, clock: 'stopped' as 'frozen', settlementDelayMs: 1.5 }).catch((e: unknown) => e)
  t.ok(err instanceof ConfigError, 'a ConfigError')
  t.match((err as Error).message, /port \(--port \/ PORT\): "-1" is invalid/)
  t.match((err as Error).message, /clock \(--clock \/ SANDBOX_CLOCK\): "stopped" is invalid: expected one of running, frozen/)
  t.match((err as Error).message, /settlementDelayMs .*"1\.5" is invalid/)
  await t.rejects(startSandbox({ prot: 0 } as SandboxOptions), { message: /unknown option prot: did you mean port\?/ })
  await t.rejects(startSandbox({ colour: 'blue' } as SandboxOptions), { message: /unknown option colour(?!:)/ })
  await t.rejects(startSandbox({ seed: { a: 1 } as unknown as string, port: 0 }), { message: 'seed (--seed / SANDBOX_SEED): {"a":1} is invalid: expected 1 to 64 characters' })
})

t.test('a busy port is a StartupError naming it', async t => {
  const blocker = createServer()
  await new Promise<void>(resolve => blocker.listen(0, '127.0.0.1', resolve))
  t.teardown(() => blocker.close())
  const port = (blocker.address() as { port: number }).port
  const err = await startSandbox({ port }).catch((e: unknown) => e)
  t.ok(err instanceof StartupError, 'a StartupError')
  t.match((err as Error).message, `port ${port} of 127.0.0.1 is already in use`)
})

t.test('close frees the port: nothing answers there, and a new sandbox can listen on it at once', async t => {
  const first = await startSandbox({ port: 0 })
  await first.close()
  await first.close() // twice is harmless
  await t.rejects(fetch(`${first.url}/__sandbox/health`), 'nothing answers once closed')
  const second = await started(t, { port: first.port })
  t.equal((await fetch(`${second.url}/__sandbox/health`)).status, 200)
})

t.test('close ends with idle clients connected: one that sent nothing, and the client\'s keep-alive connection', async t => {
  const sandbox = await startSandbox({ port: 0 })
  // The typed client keeps its connection open between requests (fetch's keep-alive).
  await sandbox.createAccount()
  const silent: Socket = connect(sandbox.port, '127.0.0.1')
  t.teardown(() => silent.destroy())
  await new Promise(resolve => silent.once('connect', resolve))
  const gone = new Promise(resolve => silent.once('close', resolve))
  // A liveness bound, not a measure of speed: without the stop's own handling, close never ends.
  const bound = SHUTDOWN_GRACE_MS + 10_000
  let timer: NodeJS.Timeout | undefined
  const outcome = await Promise.race([
    sandbox.close().then(() => 'closed'),
    new Promise(resolve => { timer = setTimeout(resolve, bound, `still closing after ${bound} ms`) }),
  ])
  clearTimeout(timer)
  t.equal(outcome, 'closed')
  // (Still closing, the teardown's destroy lets it end.)
  if (outcome === 'closed') {
    await gone
    t.pass('the idle connection was closed by the sandbox')
  }
})

t.test('await using closes it at the end of the block', async t => {
  let url = ''
  {
    await using sandbox = await startSandbox({ port: 0 })
    url = sandbox.url
    t.equal((await fetch(`${url}/__sandbox/health`)).status, 200)
  }
  await t.rejects(fetch(`${url}/__sandbox/health`))
})

t.test('with TLS settings it serves HTTPS, and its clients trust the certificate the test gave it', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-start-tls-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const server = await generateClientCertificate('localhost', 9, Date.now())
  writeFileSync(join(dir, 'cert.pem'), server.certificate)
  writeFileSync(join(dir, 'key.pem'), server.privateKey)
  const sandbox = await started(t, { tlsCert: join(dir, 'cert.pem'), tlsKey: join(dir, 'key.pem') })
  t.match(sandbox.url, /^https:\/\/127\.0\.0\.1:\d+$/)
  const acct = await sandbox.createAccount({ balance: 20 })
  t.match(await acct.client.balance(), { netBalance: 20 })
})

t.test('with an admin token the control plane asks for it, and the sandbox\'s clients send it', async t => {
  const sandbox = await started(t, { adminToken: 'an-admin-token' })
  t.equal((await fetch(`${sandbox.url}/__sandbox/accounts`)).status, 401)
  const acct = await sandbox.createAccount()
  t.equal((await acct.client.sandbox.account(acct.accountId)).accountId, acct.accountId)
})

t.test('a --data file persists what the in-process sandbox did', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-start-data-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'state.json')
  const sandbox = await startSandbox({ port: 0, data: file })
  const acct = await sandbox.createAccount({ balance: 33 })
  await sandbox.close()
  const again = await started(t, { data: file })
  t.equal((await again.client.sandbox.account(acct.accountId)).balance.available, 33)
  t.ok(readFileSync(file, 'utf8').includes(acct.clientId))
})

t.test('gateway errors arrive as PixApiError with the family\'s body', async t => {
  const sandbox = await started(t)
  const acct = await sandbox.createAccount({ balance: 1 })
  const err = await acct.client.cashOut(cashOut('too-much')).catch((e: unknown) => e)
  t.ok(err instanceof PixApiError, 'a PixApiError')
  t.match(err, { statusCode: 400, code: 'PIX_INSUFFICIENT_BALANCE', body: { statusCode: 400, code: 'PIX_INSUFFICIENT_BALANCE', path: '/pix/cash-out' } })
})

t.test('the process exits on its own after close, with a webhook sent from the sender thread on the way', async t => {
  const script = join(mkdtempSync(join(tmpdir(), 'pix-start-exit-')), 'exit.mts')
  t.teardown(() => rmSync(join(script, '..'), { recursive: true, force: true }))
  const entry = new URL('../../server/index.ts', import.meta.url).href
  writeFileSync(script, `
import { createServer } from 'node:http'
const { startSandbox } = await import(${JSON.stringify(entry)})
const receiver = createServer((req, res) => { req.resume(); req.on('end', () => res.end('ok')) })
await new Promise(resolve => receiver.listen(0, '127.0.0.1', resolve))
const sandbox = await startSandbox({ port: 0 })
const acct = await sandbox.createAccount({ balance: 100 })
await acct.client.sandbox.registerWebhook({ accountId: acct.accountId, eventType: 'cash_out', url: 'http://127.0.0.1:' + receiver.address().port + '/' })
const out = await acct.client.cashOut(${JSON.stringify(cashOut('exit-1'))})
const d = await sandbox.waitForDelivery({ accountId: acct.accountId, transactionId: out.transactionId, status: 'delivered', timeoutMs: 10000 })
await sandbox.close()
receiver.close()
process.stdout.write('closed ' + d.status)
`)
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), script], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...childEnv() }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr.on('data', (d: Buffer) => { err += d.toString() })
  // A bound for a process that never ends, not a time limit: alone the script takes 2 s, in the whole
  // suite (its TypeScript compiled through tsx on a busy machine) up to 16 s, and 30 s was once passed.
  const killer = setTimeout(() => child.kill('SIGKILL'), 120_000)
  const [code, signal] = await new Promise<[number | null, string | null]>(resolve => child.on('exit', (c, s) => resolve([c, s])))
  clearTimeout(killer)
  t.equal(signal, null, 'not killed: it ended by itself')
  t.equal(code, 0, err)
  t.equal(out, 'closed delivered')
})
