import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { request as httpRequest } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { balanceOf, bearer, buildTestApp, certHeader, documentedOperations, newAccount, type CreatedAccount } from '../helpers/app.js'
import { cashOutBody } from '../helpers/payouts.js'
import { Store } from '../../server/store/store.js'
import { endpointOf } from '../../scenarios/operations.js'
import { dialects } from '../../server/dialects/index.js'
import { defaultConfig } from '../../server/config.js'
import { sleep } from '../helpers/reliability.js'

/**
 * The transport faults over a real socket (inject cannot show a connection that is reset or never
 * answered): what the client sees, and whether the operation was performed (the ledger and the
 * transactions of the account).
 */

interface Answer { status: number, headers: Record<string, string | string[] | undefined>, body: string }

async function listening (t: Test, config: Record<string, unknown> = {}): Promise<{ app: FastifyInstance, base: URL }> {
  const app = await buildTestApp(t, config)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return { app, base: new URL(`http://127.0.0.1:${port}`) }
}

/** One request on a fresh connection; rejects with the socket's error when no answer comes. */
function send (base: URL, method: string, path: string, headers: Record<string, string>, body?: unknown, giveUp?: Promise<unknown>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const req = httpRequest(new URL(path, base), {
      method,
      agent: false,
      headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}) },
    }, res => {
      let text = ''
      res.on('data', (d: Buffer) => { text += d.toString() })
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }))
      res.on('error', reject)
    })
    // The client giving up, as an integration's HTTP timeout does.
    void giveUp?.then(() => req.destroy(Object.assign(new Error('client timeout'), { code: 'CLIENT_TIMEOUT' })))
    req.on('error', reject)
    req.end(payload)
  })
}

const cashOutWith = (base: URL, a: CreatedAccount, scenario: string, body = cashOutBody(), giveUp?: Promise<unknown>) =>
  send(base, 'POST', '/api/pix/cash-out', { ...bearer(a.token), 'x-sandbox-scenario': scenario }, body, giveUp)

/**
 * Settles once the sandbox applies the scenario `name` to a request: from then on a TIMEOUT is held
 * (server/faults.ts holds it in the same turn). A client that gave up on a timer of its own could give
 * up before a loaded sandbox even read the request, and then nothing was held.
 */
function applied (app: FastifyInstance, name: string): Promise<void> {
  const scenarios = app.sandbox.scenarios
  const resolveScenarios = scenarios.resolve.bind(scenarios)
  return new Promise(resolve => {
    scenarios.resolve = (...args) => {
      const found = resolveScenarios(...args)
      if (found.some(s => s.name === name)) resolve()
      return found
    }
  })
}

async function transactionsOf (app: FastifyInstance, accountId: number): Promise<Array<{ externalId: string | null, status: string }>> {
  const res = await app.inject({ method: 'GET', url: `/__sandbox/transactions?accountId=${accountId}` })
  return res.json().transactions
}

async function requestsOf (app: FastifyInstance, accountId: number): Promise<Array<{ status: number, scenarios: string[], path: string }>> {
  const res = await app.inject({ method: 'GET', url: `/__sandbox/requests?accountId=${accountId}` })
  return res.json().requests
}

t.test('LATENCY answers after ms of real time, and the operation is performed even when the client gave up first', async t => {
  const { app, base } = await listening(t)
  const a = await newAccount(app, { balance: 100, fee: 0 })
  const started = Date.now()
  const res = await cashOutWith(base, a, 'LATENCY;ms=300')
  // Less a millisecond: a Node timer may fire up to 1 ms early as Date.now() measures it.
  t.ok(Date.now() - started >= 300 - 1, 'the answer came after the latency')
  t.equal(res.status, 201, res.body)
  t.equal(res.headers['x-sandbox-scenario-applied'], 'LATENCY;ms=300')

  const body = cashOutBody()
  await t.rejects(cashOutWith(base, a, 'LATENCY;ms=2000', body, applied(app, 'LATENCY').then(() => sleep(150))), { code: 'CLIENT_TIMEOUT' }, 'the client gave up')
  const mine = (await transactionsOf(app, a.accountId)).filter(x => x.externalId === body.externalId)
  t.equal(mine.length, 1, 'the pay-out the client gave up on exists')
  t.equal((await balanceOf(app, a.accountId)).available, 100 - 2 * 10, 'both pay-outs are reserved')
})

t.test('TIMEOUT holds the request until the client gives up; nothing is performed', async t => {
  const { app, base } = await listening(t)
  const a = await newAccount(app, { balance: 100, fee: 0 })
  await t.rejects(cashOutWith(base, a, 'TIMEOUT', cashOutBody(), applied(app, 'TIMEOUT').then(() => sleep(200))), { code: 'CLIENT_TIMEOUT' })
  t.same(await transactionsOf(app, a.accountId), [], 'no transaction')
  t.equal((await balanceOf(app, a.accountId)).available, 100, 'nothing reserved')
  // The held request is journaled once the client is gone, as unanswered.
  let journaled: Awaited<ReturnType<typeof requestsOf>> = []
  for (let i = 0; i < 250 && journaled.length === 0; i++) {
    journaled = (await requestsOf(app, a.accountId)).filter(r => r.path === '/api/pix/cash-out')
    if (journaled.length === 0) await sleep(20)
  }
  t.match(journaled, [{ status: 0, scenarios: ['TIMEOUT'] }])
})

t.test('TIMEOUT;ms=N closes the connection without an answer after N ms', async t => {
  const { app, base } = await listening(t)
  const a = await newAccount(app, { balance: 100, fee: 0 })
  const err = await cashOutWith(base, a, 'TIMEOUT;ms=100').then(() => null, (e: NodeJS.ErrnoException) => e)
  t.ok(err, 'no answer')
  t.match(err?.code, /ECONNRESET/, 'the client sees the connection closed')
  t.same(await transactionsOf(app, a.accountId), [], 'no transaction')
})

t.test('a held request does not hold up close(): close ends it', async t => {
  const app = await buildTestApp(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const base = new URL(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`)
  const a = await newAccount(app, { balance: 100, fee: 0 })
  const held = applied(app, 'TIMEOUT')
  const pending = cashOutWith(base, a, 'TIMEOUT').then(() => 'answered', (e: NodeJS.ErrnoException) => e.code)
  await held
  const closed = await Promise.race([app.close().then(() => 'closed'), new Promise(resolve => setTimeout(() => resolve('still open after 10 s'), 10_000))])
  t.equal(closed, 'closed', 'close() did not wait for the 60 s of the TIMEOUT')
  t.equal(await pending, 'ECONNRESET', 'the held client sees the connection end')
})

t.test('CONNECTION_RESET before the operation: the client sees ECONNRESET, nothing is performed', async t => {
  const { app, base } = await listening(t)
  const a = await newAccount(app, { balance: 100, fee: 0 })
  await t.rejects(cashOutWith(base, a, 'CONNECTION_RESET'), { code: 'ECONNRESET' })
  t.same(await transactionsOf(app, a.accountId), [])
  t.equal((await balanceOf(app, a.accountId)).available, 100)
  t.match((await requestsOf(app, a.accountId)).filter(r => r.path === '/api/pix/cash-out'), [{ status: 0, scenarios: ['CONNECTION_RESET'] }])
})

t.test('CONNECTION_RESET;after=commit: the client sees ECONNRESET, the pay-out is performed and on disk', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-faults-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'state.json')
  const { app, base } = await listening(t, { data: file })
  const a = await newAccount(app, { balance: 100, fee: 0 })
  const body = cashOutBody()
  await t.rejects(cashOutWith(base, a, 'CONNECTION_RESET;after=commit', body), { code: 'ECONNRESET' })
  t.match(await transactionsOf(app, a.accountId), [{ externalId: body.externalId, status: 'PENDING' }], 'the pay-out exists')
  t.equal((await balanceOf(app, a.accountId)).available, 90, 'and is reserved')
  t.same((await requestsOf(app, a.accountId)).filter(r => r.path === '/api/pix/cash-out').map(r => [r.status, r.scenarios]), [[0, ['CONNECTION_RESET']]],
    'journaled once, as unanswered')
  // Durable before the reset: the data file, read by another store, already holds it.
  const reread = new Store({ file })
  await reread.open()
  t.ok(Object.values(reread.data.transactions).some(x => x.externalId === body.externalId), 'the data file holds the pay-out')
  await reread.close()
  // A retry with the same externalId is refused: the client must query, not pay twice.
  const retry = await cashOutWith(base, a, 'LATENCY;ms=0', body)
  t.match(JSON.parse(retry.body), { statusCode: 400, errorCode: 'PIX_DUPLICATE_EXTERNAL_ID' })
})

t.test('RATE_LIMITED answers 429 with Retry-After in each family\'s shape; nothing is performed', async t => {
  const { app, base } = await listening(t)
  const a = await newAccount(app, { balance: 100, fee: 0 })
  const res = await cashOutWith(base, a, 'RATE_LIMITED;retryAfter=7')
  t.equal(res.status, 429)
  t.equal(res.headers['retry-after'], '7')
  // The shape of the MED list's own rate limit (docs/gateway.md §7.10): a business code with the seconds to wait.
  t.match(JSON.parse(res.body), { statusCode: 429, code: 'RATE_LIMITED', errorCode: 'RATE_LIMITED', details: { retryAfterSeconds: 7 }, path: '/pix/cash-out', method: 'POST', userMessage: /aguarde/i })
  const dict = await send(base, 'POST', '/dict/pix', { ...bearer(a.token), 'x-sandbox-scenario': 'RATE_LIMITED', 'x-idempotency-key': crypto.randomUUID() },
    { pixKey: 'joao.souza@example.com', payment: { currency: 'BRL', amount: 1 } })
  t.equal(dict.status, 429)
  t.equal(dict.headers['retry-after'], '1', 'one second unless given')
  t.same(Object.keys(JSON.parse(dict.body)).sort(), ['error', 'message', 'statusCode'], 'the simple shape')
  t.same(await transactionsOf(app, a.accountId), [])
  t.equal((await balanceOf(app, a.accountId)).available, 100)
})

t.test('SERVICE_UNAVAILABLE answers 503, on the token too; nothing is performed', async t => {
  const { app, base } = await listening(t)
  const a = await newAccount(app, { balance: 100, fee: 0 })
  const token = await send(base, 'POST', '/api/auth/token', { 'x-ssl-client-cert': certHeader(a.certificate), 'x-sandbox-scenario': 'SERVICE_UNAVAILABLE' },
    { clientId: a.clientId, clientSecret: a.clientSecret })
  t.equal(token.status, 503)
  t.match(JSON.parse(token.body), { statusCode: 503, error: 'Service Unavailable', message: /indisponível/ })
  const res = await cashOutWith(base, a, 'SERVICE_UNAVAILABLE')
  t.equal(res.status, 503)
  t.match(JSON.parse(res.body), { statusCode: 503, code: 'HTTP_ERROR', error: 'Service Unavailable' })
  t.same(await transactionsOf(app, a.accountId), [])
  t.equal((await balanceOf(app, a.accountId)).available, 100)
})

t.test('armed faults apply to the account\'s next requests, the token included, and are used up once', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 100, fee: 0 })
  const arm = await app.inject({ method: 'POST', url: '/__sandbox/scenarios/arm', payload: { accountId: a.accountId, scenario: 'RATE_LIMITED;retryAfter=3', endpoint: 'token', times: 1 } })
  t.equal(arm.statusCode, 201, arm.body)
  const tokenRequest = () => app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': certHeader(a.certificate) }, payload: { clientId: a.clientId, clientSecret: a.clientSecret } })
  const first = await tokenRequest()
  t.equal(first.statusCode, 429)
  t.equal(first.headers['retry-after'], '3')
  t.equal(first.headers['x-sandbox-scenario-applied'], 'RATE_LIMITED;retryAfter=3')
  t.equal((await tokenRequest()).statusCode, 201, 'used up by one request')

  // Armed for every endpoint, twice: the route and the fault share one resolution (counted once each).
  await app.inject({ method: 'POST', url: '/__sandbox/scenarios/arm', payload: { accountId: a.accountId, scenario: 'SERVICE_UNAVAILABLE', times: 2 } })
  const cashOut = () => app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(a.token), payload: cashOutBody() })
  t.equal((await cashOut()).statusCode, 503)
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(a.token) })).statusCode, 503)
  t.equal((await cashOut()).statusCode, 201, 'two requests used it up')
  t.equal((await balanceOf(app, a.accountId)).available, 90, 'only the last pay-out was performed')
})

/** Where the scenarios of the dialects' operations apply, as the app reads them from the registry. */
const scenarioEndpoints = {
  tags: new Set(dialects.flatMap(d => d.tags(defaultConfig()).map(t => t.name))),
  endpoints: Object.assign({}, ...dialects.map(d => d.scenarioEndpoints)),
}

t.test('every gateway operation takes the faults, and bad parameters are a clear 400', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app)
  const doc = app.swagger() as unknown as Parameters<typeof documentedOperations>[0] & { paths: Record<string, Record<string, { tags?: string[] }>> }
  // The operations of the gateway's families and of API Pix; not the payloads and their key, which a
  // payer's PSP reads without a token (scenarios/operations.ts).
  const gateway = documentedOperations(doc).filter(op => endpointOf({ url: op.path, schema: doc.paths[op.path][op.method.toLowerCase()] }, scenarioEndpoints) !== null)
  t.ok(gateway.length >= 17, 'every operation of both families')
  // Mercado Pago's routes take the account's own access token.
  const tokenOf = (path: string): string => path.startsWith('/v1/payments') ? (a as unknown as { mercadoPago: { accessToken: string } }).mercadoPago.accessToken : a.token
  for (const op of gateway) {
    const url = op.path.replace('{txid}', 'a'.repeat(26)).replace('{e2eid}', 'E'.repeat(32)).replace(/\{\w+\}/g, 'x1')
    const res = await app.inject({ method: op.method as 'GET', url, headers: { ...bearer(tokenOf(op.path)), 'x-sandbox-scenario': 'SERVICE_UNAVAILABLE' }, ...(op.method === 'GET' ? {} : { payload: {} }) })
    // A body the route refuses is a 400 before any fault: what matters is that none answers as if no fault were asked.
    t.ok([503, 400].includes(res.statusCode), `${op.method} ${op.path}: ${res.statusCode}`)
    t.ok(op.statuses.has('429') && op.statuses.has('503'), `${op.method} ${op.path} declares 429 and 503`)
  }
  for (const op of gateway.filter(o => o.method === 'GET' && o.params === 0)) {
    // The central-bank lists and API Pix's require their period (BACEN's inicio and fim): a valid request but for the fault.
    const query = op.path === '/cob' || op.path === '/pix' || op.path.startsWith('/v2/') ? '?inicio=2020-01-01T00:00:00Z&fim=2030-01-01T00:00:00Z' : ''
    const res = await app.inject({ method: 'GET', url: op.path + query, headers: { ...bearer(tokenOf(op.path)), 'x-sandbox-scenario': 'SERVICE_UNAVAILABLE' } })
    t.equal(res.statusCode, 503, `${op.path}: the fault applies`)
  }
  const bad = async (scenario: string, message: RegExp) => {
    const res = await app.inject({ method: 'GET', url: '/balance', headers: { ...bearer(a.token), 'x-sandbox-scenario': scenario } })
    t.equal(res.statusCode, 400, scenario)
    t.match(res.json().message, message, scenario)
  }
  await bad('LATENCY', /exige o parâmetro ms/)
  await bad('LATENCY;ms=30001', /ms do cenário LATENCY deve ser um inteiro de 0 a 30000/)
  await bad('LATENCY;ms=abc', /inteiro de 0 a 30000/)
  await bad('TIMEOUT;ms=0', /inteiro de 1 a 60000/)
  await bad('CONNECTION_RESET;after=now', /after do cenário CONNECTION_RESET aceita commit/)
  await bad('RATE_LIMITED;retryAfter=-1', /inteiro de 0 a 3600/)
  await bad('INSUFFICIENT_FUNDS', /Cenário desconhecido para balance/)
  const arm = await app.inject({ method: 'POST', url: '/__sandbox/scenarios/arm', payload: { accountId: a.accountId, scenario: 'LATENCY;ms=99999' } })
  t.equal(arm.statusCode, 400, 'arming checks the parameters too')
})

t.test('in process (app.inject, no socket): a reset or a held request ends unanswered, never throws inside the sandbox', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 100, fee: 0 })
  for (const scenario of ['CONNECTION_RESET', 'TIMEOUT;ms=20']) {
    await t.rejects(app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: { ...bearer(a.token), 'x-sandbox-scenario': scenario }, payload: cashOutBody() }), { code: 'LIGHT_ECONNRESET' }, scenario)
  }
  t.same(await transactionsOf(app, a.accountId), [], 'nothing performed')
  t.equal((await balanceOf(app, a.accountId)).available, 100)
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(a.token) })).statusCode, 200, 'the sandbox goes on')
})
