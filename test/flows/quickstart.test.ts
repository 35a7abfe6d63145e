import t, { type Test } from 'tap'
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { startSandbox } from '../../server/index.js'
import { childEnv } from '../helpers/process.js'

/**
 * The README's quick start is examples/quickstart.sh (`npm run docs` copies it into the README): run
 * here as a newcomer runs it, `sh examples/quickstart.sh` with curl and node, against a sandbox
 * listening as `npm start` does (the default fixtures), and each step must print what its comment
 * says. And on the leftovers of a developer's machine: a clock left frozen by an earlier run (the
 * whole run starts from one), the receiver's port taken by an app of theirs, no sandbox started.
 * Either it runs whole, or it stops before its first step with one line saying what to do.
 */

const root = fileURLToPath(new URL('../..', import.meta.url))

/** A port nothing listens on, for the script's webhook receiver (it takes a number, as a reader would give it). */
async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise(resolve => server.close(resolve))
  return port
}

interface Run { code: number | null, stdout: string, stderr: string, ms: number }

function runScript (env: Record<string, string>): Promise<Run> {
  const started = performance.now()
  return new Promise(resolve => {
    // A process group of its own, so that a timeout also ends the receiver the script started.
    const child = spawn('sh', ['examples/quickstart.sh'], { cwd: root, detached: true, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...childEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
    const killer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL') } catch { /* gone */ } }, 120_000)
    child.on('close', code => { clearTimeout(killer); resolve({ code, stdout, stderr, ms: Math.round(performance.now() - started) }) })
  })
}

/** Every step printed what its comment says, and the reader's receiver printed the webhooks. */
function stepsAsDocumented (t: Test, res: Run): void {
  t.equal(res.code, 0, 'the script ends well', { stderr: res.stderr })
  t.equal(res.stderr, '', 'nothing on stderr')

  const lines = res.stdout.trimEnd().split('\n')
  const received = lines.filter(l => l.startsWith('webhook ')).map(l => {
    const [, eventType, ...body] = l.split(' ')
    return { eventType, body: JSON.parse(body.join(' ')) as Record<string, unknown> & { data?: Record<string, unknown> } }
  })
  const steps = lines.filter(l => !l.startsWith('webhook '))
  const json = (i: number): unknown => JSON.parse(steps[i])

  t.match(json(0), { netBalance: 10000, blockedBalance: 0 }, '1. the default account\'s balance, with a token of its own')
  t.same(steps.slice(1, 4), ['cash_out', 'cash_in', 'refund_in'], '2. the receiver registered for three event types')
  t.match(json(4), { status: 'PENDING', externalId: 'order-1' }, '3. the cash-out is accepted')
  t.equal(steps[5], 'CONFIRMED', '3. and its webhook says it settled')
  t.match(steps[6], /^00020101/, '4. the charge\'s copy-and-paste code')
  t.same(steps.slice(7, 9), ['CONFIRMED', 'LIQUIDATED'], '4. paid, and its cash_in webhook')
  t.match(json(9), { status: 'PENDING', refundValue: 5 }, '5. the refund is accepted')
  t.equal(steps[10], 'REFUNDED', '5. and its refund_in webhook says it settled')
  t.equal(steps[11], 'BLOCKED_ACCOUNT', '6. the scenario\'s webhook carries the error')
  t.same(steps.slice(12, 17).map((s, i) => i === 2 ? /^\d{4}-\d\d-\d\dT/.test(s) : s), ['true', 'PENDING', true, 'CONFIRMED', 'false'], '7. frozen, pending; advanced, settled; resumed')
  t.match(json(17), { netBalance: 10000 - 10.5 + 25 - 5 - 10.5 }, '7. the balance after it all (a failed cash-out costs nothing)')
  t.match(steps[18], /^127\.0\.0\.1:\d+\/qr\/v2\/[0-9a-f]{32}$/, '8. the API Pix cob\'s payload location, at the sandbox')
  t.equal(steps[19], '12.34', '8. paid by its code')
  t.equal(steps[20], 'CONCLUIDA', '8. and API Pix shows it paid')
  t.match(steps[21], /^RN\w{27}$/, '9. the recurrence\'s idRec')
  t.same(steps.slice(22, 25), ['APROVADA', 'CRIADA', 'CONCLUIDA'], '9. approved by its payer, charged, debited on its date')
  t.equal(steps[25], '10061.24', '9. and the account credited: 49.90 more than after the cob of 8 (12.34)')
  t.same(json(26), { reset: 'all' }, '10. reset')
  t.match(json(27), { available: 10000, blocked: 0 }, '10. the account is back to its opening balance')
  t.equal(steps[28], '401', '10. the old token is refused')
  t.equal(steps.length, 29, 'nothing else printed')

  // What the reader's receiver printed (the last cash-out may or may not be delivered before the reset).
  const got = received.map(r => `${r.eventType} ${String(r.body.status ?? r.body.data?.status)}`)
  for (const expected of ['cash_out CONFIRMED', 'cash_in LIQUIDATED', 'refund_in REFUNDED', 'cash_out ERROR']) t.ok(got.includes(expected), `the receiver printed ${expected}`)
}

// The whole script runs once (its steps start some forty processes), from a clock left frozen: its
// step 0 resets and sets the clock running, where a sandbox just started already is.
t.test('examples/quickstart.sh runs every money flow against a running sandbox, each step printing what it says, even with a clock left frozen by an earlier run', async t => {
  const sandbox = await startSandbox({ port: 0, seed: 'quickstart' })
  t.teardown(() => sandbox.close())
  t.equal((await sandbox.client.sandbox.freezeClock()).frozen, true, 'frozen, as step 7 leaves it when the script is stopped there')
  stepsAsDocumented(t, await runScript({ PIX: sandbox.url, HOOK_PORT: String(await freePort()) }))
  t.equal((await sandbox.client.sandbox.clock()).frozen, false, 'and the clock runs after it')
})

t.test('the receiver\'s port taken by another app: one line naming HOOK_PORT, before any step reaches the sandbox', async t => {
  const sandbox = await startSandbox({ port: 0, seed: 'quickstart' })
  t.teardown(() => sandbox.close())
  // The developer's own app, on the port the receiver wants.
  const app = createServer()
  await new Promise<void>(resolve => app.listen(0, '127.0.0.1', resolve))
  t.teardown(() => app.close())
  const port = (app.address() as { port: number }).port

  const res = await runScript({ PIX: sandbox.url, HOOK_PORT: String(port) })
  t.equal(res.code, 1, 'the script fails')
  t.equal(res.stdout, '', 'no step ran')
  const lines = res.stderr.trimEnd().split('\n')
  t.equal(lines.length, 1, 'one line on stderr', { stderr: res.stderr })
  t.match(lines[0], new RegExp(`^quickstart: port ${port} of 127\\.0\\.0\\.1 is taken.*HOOK_PORT=`), 'it names the port and the variable that moves the receiver')
  t.same((await sandbox.client.sandbox.requests()).requests, [], 'no request reached the sandbox: it stopped before its first step')
  // A step that ran would wait up to 10 s for a webhook that the receiver never gets.
  t.ok(res.ms < 10_000, `it stopped before any wait for a webhook (${res.ms} ms)`)
})

t.test('no sandbox at PIX: one line saying to start one, and nothing else', async t => {
  const res = await runScript({ PIX: `http://127.0.0.1:${await freePort()}`, HOOK_PORT: String(await freePort()) })
  t.equal(res.code, 1, 'the script fails')
  t.equal(res.stdout, '', 'no step ran')
  const lines = res.stderr.trimEnd().split('\n')
  t.equal(lines.length, 1, 'one line on stderr', { stderr: res.stderr })
  t.match(lines[0], /^quickstart: no pix-sandbox answers at http:\/\/127\.0\.0\.1:\d+: start one with `npm start`.*PIX=/)
})
