import t from 'tap'
import { startMain } from '../helpers/process.js'
import { request } from 'undici'
import { buildApp } from '../../server/app.js'
import { T0, certHeader, fixtureAccount } from '../helpers/app.js'

/**
 * The real listening server over HTTP (undici), and the real process (server/main.ts): healthy,
 * one JSON log line per request with its id and no secret, graceful SIGTERM, and a refused start on
 * bad settings.
 */

t.test('a listening app serves a token and the balance over HTTP', async t => {
  const app = await buildApp({ config: { seed: 'http-seed', clock: 'frozen', clockStart: T0 } })
  t.teardown(() => app.close())
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  t.match(address, /^http:\/\/127\.0\.0\.1:\d+$/)

  const tokenRes = await request(`${address}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-ssl-client-cert': certHeader(fixtureAccount.certificate), 'x-request-id': 'flow-1' },
    body: JSON.stringify({ clientId: fixtureAccount.clientId, clientSecret: fixtureAccount.clientSecret }),
  })
  t.equal(tokenRes.statusCode, 201)
  t.equal(tokenRes.headers['x-request-id'], 'flow-1')
  t.match(tokenRes.headers['content-type'], /application\/json/)
  const token = (await tokenRes.body.json() as { access_token: string }).access_token

  const balance = await request(`${address}/accounts/balances`, { headers: { authorization: `Bearer ${token}` } })
  t.equal(balance.statusCode, 200)
  t.same(await balance.body.json(), { data: [{ eventDate: T0, balanceAmount: { available: 10000, blocked: 0, overdraft: 0 } }] })

  const standard = await request(`${address}/balance`, { headers: { authorization: `Bearer ${token}` } })
  t.same(await standard.body.json(), { grossBalance: 10000, blockedBalance: 0, netBalance: 10000, consultedAt: T0 })

  const denied = await request(`${address}/balance`)
  t.equal(denied.statusCode, 401)
  t.equal((await denied.body.json() as { code: string }).code, 'HTTP_ERROR')

  // A body over 1 MB sent for real is refused with 413, and the server keeps serving.
  const big = await request(`${address}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-ssl-client-cert': certHeader(fixtureAccount.certificate) },
    body: JSON.stringify({ clientId: 'x'.repeat(1_100_000), clientSecret: 'whatever-secret' }),
  })
  t.equal(big.statusCode, 413)
  await big.body.dump()
  const health = await request(`${address}/__sandbox/health`)
  t.equal(health.statusCode, 200)
  t.equal((await health.body.json() as { status: string }).status, 'ok')
})

async function waitFor<T> (what: string, fn: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await fn()
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

const jsonLines = (text: string): Array<Record<string, unknown>> =>
  text.split('\n').filter(l => l.trim() !== '').map(l => JSON.parse(l) as Record<string, unknown>)

t.test('the real process, started as `npm start` starts it: healthy, one JSON line per request without secrets, SIGTERM exits 0', async t => {
  const proc = startMain(['--port', '0', '--host', '127.0.0.1', '--log-level', 'info', '--seed', 'proc-seed'], {}, { npmStart: true })
  t.teardown(() => { if (proc.child.exitCode === null) proc.child.kill('SIGKILL') })

  const address = await waitFor('the listening line', () => {
    const line = jsonLines(proc.stdout()).find(l => typeof l.address === 'string')
    return line?.address as string | undefined
  })
  const started = Date.now()
  const health = await waitFor('health', async () => {
    const res = await request(`${address}/__sandbox/health`).catch(() => undefined)
    if (!res) return undefined
    const body = await res.body.json() as { status: string, seed: string }
    return res.statusCode === 200 ? body : undefined
  })
  t.equal(health.status, 'ok')
  t.equal(health.seed, 'proc-seed', 'the seed flag is used')
  t.ok(Date.now() - started < 5000, 'healthy quickly once listening')

  const tokenRes = await request(`${address}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-ssl-client-cert': certHeader(fixtureAccount.certificate), 'x-request-id': 'proc-token-1' },
    body: JSON.stringify({ clientId: fixtureAccount.clientId, clientSecret: fixtureAccount.clientSecret }),
  })
  t.equal(tokenRes.statusCode, 201)
  const token = (await tokenRes.body.json() as { access_token: string }).access_token
  const balance = await request(`${address}/balance`, { headers: { authorization: `Bearer ${token}`, 'x-request-id': 'proc-balance-1' } })
  t.equal(balance.statusCode, 200)
  await balance.body.dump()
  const bad = await request(`${address}/balance`, { headers: { authorization: 'Bearer not-a-token' } })
  t.equal(bad.statusCode, 401)
  await bad.body.dump()

  const requestLines = await waitFor('the log lines of the three requests', () => {
    const lines = jsonLines(proc.stdout()).filter(l => l.msg === 'request' && l.path !== '/__sandbox/health')
    return lines.length >= 3 ? lines : undefined
  })
  t.equal(requestLines.length, 3, 'one line per request, not two')
  t.same(requestLines.map(l => [l.method, l.path, l.statusCode]), [['POST', '/api/auth/token', 201], ['GET', '/balance', 200], ['GET', '/balance', 401]])
  t.equal(requestLines[0].requestId, 'proc-token-1')
  t.equal(requestLines[1].requestId, 'proc-balance-1')
  t.match(requestLines[2].requestId, /^[0-9a-f-]{36}$/)
  t.equal(requestLines[1].accountId, 1)
  for (const l of requestLines) {
    t.type(l.durationMs, 'number')
    t.type(l.level, 'number')
    t.type(l.time, 'number')
  }
  const all = proc.stdout() + proc.stderr()
  t.notOk(all.includes(fixtureAccount.clientSecret), 'no clientSecret in the logs')
  t.notOk(all.includes(token), 'no access token in the logs')
  t.notOk(all.includes('not-a-token'), 'no rejected token in the logs')
  t.notOk(/authorization/i.test(all), 'no Authorization header in the logs')
  t.notOk(all.includes('BEGIN CERTIFICATE') || all.includes('BEGIN%20CERTIFICATE'), 'no certificate in the logs')

  proc.child.kill('SIGTERM')
  const exit = await proc.exit
  t.same(exit, { code: 0, signal: null }, 'SIGTERM exits 0')
  t.ok(jsonLines(proc.stdout()).some(l => l.msg === 'shutting down'), 'logs the shutdown')
})

t.test('bad settings stop the start with one message naming every bad key', async t => {
  const proc = startMain(['--port', 'abc', '--settlement-delay-ms', '-1'])
  const exit = await proc.exit
  t.not(exit.code, 0)
  t.equal(exit.code, 2)
  const err = proc.stderr()
  t.match(err, 'port')
  t.match(err, 'settlementDelayMs')
  t.match(err, '--help')
  t.equal(proc.stdout(), '', 'nothing listened')
})

t.test('a bad environment variable is reported like a flag', async t => {
  const proc = startMain(['--port', '0'], { LOG_LEVEL: 'loud', SANDBOX_CLOCK: 'sideways' })
  const exit = await proc.exit
  t.equal(exit.code, 2)
  t.match(proc.stderr(), 'LOG_LEVEL')
  t.match(proc.stderr(), 'SANDBOX_CLOCK')
})

t.test('--help lists every setting and exits 0 without listening', async t => {
  const proc = startMain(['--help'])
  const exit = await proc.exit
  t.equal(exit.code, 0)
  t.match(proc.stdout(), 'Usage: pix-sandbox')
  for (const flag of ['--port', '--host', '--data', '--seed', '--log-level', '--admin-token', '--tls-cert', '--tls-key', '--clock']) t.match(proc.stdout(), flag)
})
