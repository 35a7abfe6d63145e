import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../server/app.js'
import { T0, bearer, buildTestApp, newAccount, tokenFor, type CreatedAccount } from '../helpers/app.js'
import { cashOutBody } from '../helpers/payouts.js'

/**
 * A token is bound to the account it was issued for as that account was then: a full reset, a reset
 * of the account alone or a snapshot import ends the account's life, and every token issued before
 * is 401 from then on, including a request whose headers came before the reset and whose body came
 * after. The new account that took the id is never touched.
 */

type App = FastifyInstance

async function listening (t: Test, config: Record<string, unknown> = {}): Promise<{ app: App, port: number }> {
  const app = await buildTestApp(t, config)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, port: (app.server.address() as AddressInfo).port }
}

interface HalfSent {
  /** Sends the rest of the body and resolves with the answer's status and body. */
  finish (): Promise<{ status: number, body: any }>
}

/**
 * A request whose headers and first bytes of body are on the wire, and whose routing and onRequest
 * hooks have run (the server emitted 'request' for it), with the rest of its body held back.
 */
async function halfSend (app: App, port: number, method: string, path: string, token: string, body: unknown): Promise<HalfSent> {
  const payload = Buffer.from(JSON.stringify(body))
  const socket: Socket = connect(port, '127.0.0.1')
  await new Promise<void>((resolve, reject) => { socket.once('connect', resolve).once('error', reject) })
  const seen = new Promise<void>(resolve => {
    const onRequest = (req: { url?: string }): void => {
      if (req.url !== path) return
      app.server.off('request', onRequest)
      // The listener runs after Fastify's: let its hooks finish their turn.
      setImmediate(resolve)
    }
    app.server.on('request', onRequest)
  })
  let raw = ''
  socket.on('data', (d: Buffer) => { raw += d.toString() })
  const ended = new Promise<void>(resolve => socket.once('end', resolve).once('close', resolve))
  socket.write(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\nConnection: close\r\n\r\n`)
  socket.write(payload.subarray(0, 10))
  await seen
  return {
    async finish () {
      socket.end(payload.subarray(10))
      await ended
      const [head, ...rest] = raw.split('\r\n\r\n')
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1])
      return { status, body: JSON.parse(rest.join('\r\n\r\n')) }
    },
  }
}

interface Ledger { balance: unknown, totals: unknown, transactions: number }
function ledgerOf (app: App, accountId: number): Ledger {
  const a = app.sandbox.store.account(accountId)!
  return structuredClone({ balance: a.balance, totals: a.totals, transactions: app.sandbox.store.transactionsOf(accountId).length })
}

/** The extended shape of the standard family's 401. */
function isExtended401 (t: Test, answer: { status: number, body: any }, path: string): void {
  t.equal(answer.status, 401, JSON.stringify(answer.body))
  t.same(Object.keys(answer.body).sort(), ['code', 'error', 'errorId', 'message', 'method', 'path', 'statusCode', 'timestamp', 'userMessage'], 'the extended shape')
  t.equal(answer.body.path, path)
  t.equal(answer.body.statusCode, 401)
}

const post = async (app: App, url: string, payload?: object) => {
  const res = await app.inject({ method: 'POST', url, ...(payload ? { payload } : {}) })
  if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
  return res.json()
}

t.test('a cash-out whose body arrives after a full reset is 401, and the new account with its id pays nothing', async t => {
  const { app, port } = await listening(t)
  const a = await newAccount(app, { balance: 1000 })
  const inFlight = await halfSend(app, port, 'POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 300 }))
  await post(app, '/__sandbox/reset')
  const b = await newAccount(app, { balance: 1000 })
  t.equal(b.accountId, a.accountId, 'the new account took the id')
  await post(app, '/__sandbox/scenarios/arm', { accountId: b.accountId, scenario: 'ORDER_REJECTED', endpoint: 'cash-out', times: 1 })
  const before = ledgerOf(app, b.accountId)
  isExtended401(t, await inFlight.finish(), '/pix/cash-out')
  t.same(ledgerOf(app, b.accountId), before, 'the new account\'s ledger is untouched')
  const armed = (await app.inject({ method: 'GET', url: `/__sandbox/scenarios/armed?accountId=${b.accountId}` })).json().armed
  t.match(armed, [{ scenario: 'ORDER_REJECTED', remaining: 1 }], 'the new account\'s armed scenario is still armed')
  const journal = (await app.inject({ method: 'GET', url: `/__sandbox/requests?accountId=${b.accountId}&path=/api/pix/cash-out` })).json()
  t.same(journal.requests, [], 'the 401 is not filed in the journal of the account that took the id')
  const unowned = (await app.inject({ method: 'GET', url: '/__sandbox/requests?path=/api/pix/cash-out&status=401' })).json()
  t.match(unowned.requests, [{ accountId: null, status: 401 }], 'it is filed as of no account')
})

t.test('a cash-out whose body arrives after its account was reset alone is 401, not 500', async t => {
  const { app, port } = await listening(t)
  const a = await newAccount(app, { balance: 1000 })
  const inFlight = await halfSend(app, port, 'POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 300 }))
  await post(app, '/__sandbox/reset', { accountId: a.accountId })
  const before = ledgerOf(app, a.accountId)
  isExtended401(t, await inFlight.finish(), '/pix/cash-out')
  t.same(ledgerOf(app, a.accountId), before, 'the account as reset is untouched')
  t.equal(before.transactions, 0)
})

t.test('a cash-out whose body arrives after a snapshot import is 401, not 400', async t => {
  const { app, port } = await listening(t)
  const a = await newAccount(app, { balance: 1000 })
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  // The account spends most of its money, so the request's own view of it would be stale after the import.
  t.equal((await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(a.token), payload: cashOutBody({ value: 900 }) })).statusCode, 201)
  const inFlight = await halfSend(app, port, 'POST', '/api/pix/cash-out', a.token, cashOutBody({ value: 300 }))
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  const before = ledgerOf(app, a.accountId)
  isExtended401(t, await inFlight.finish(), '/pix/cash-out')
  t.same(ledgerOf(app, a.accountId), before, 'the imported account is untouched')
})

t.test('a central-bank cob whose body arrives after its account was reset is 401 in the simple shape, and no charge is made', async t => {
  const { app, port } = await listening(t)
  const a = await newAccount(app)
  const inFlight = await halfSend(app, port, 'PUT', '/cob/racetxidaaaaaaaaaaaaaaaaaaa01', a.token, { calendario: { expiracao: 3600 }, valor: { original: '5.00' } })
  await post(app, '/__sandbox/reset', { accountId: a.accountId })
  const answer = await inFlight.finish()
  t.equal(answer.status, 401, JSON.stringify(answer.body))
  t.same(Object.keys(answer.body).sort(), ['error', 'message', 'statusCode'], 'the simple shape')
  t.equal(ledgerOf(app, a.accountId).transactions, 0, 'no charge')
})

t.test('a webhook registration whose body arrives after a full reset is 401 and registers nothing for the new account', async t => {
  const { app, port } = await listening(t, { publicWebhooks: 'enabled' })
  const a = await newAccount(app)
  const inFlight = await halfSend(app, port, 'POST', '/api/webhooks', a.token, { url: 'https://a.example.com/hook', eventType: 'cash_out' })
  await post(app, '/__sandbox/reset')
  const b = await newAccount(app)
  t.equal(b.accountId, a.accountId)
  isExtended401(t, await inFlight.finish(), '/webhooks')
  t.same(app.sandbox.webhooks.registrations.list(b.accountId), [], 'nothing registered')
})

t.test('a charge whose account is reset while its QR image is drawn is 401 and is not stored', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app)
  // The reset lands between the checks and the unit that stores the charge (the service awaits the image there).
  const charges = app.sandbox.charges as unknown as { merchantName: (account: unknown) => string }
  const merchantName = charges.merchantName.bind(charges)
  charges.merchantName = (account) => {
    charges.merchantName = merchantName
    app.sandbox.accounts.reset(app.sandbox.store.account(a.accountId)!)
    return merchantName(account)
  }
  const res = await app.inject({
    method: 'POST',
    url: '/api/pix/cash-in',
    headers: bearer(a.token),
    payload: { transaction: { value: 10, description: 'x', externalId: 'qr-race', generateQrCode: true }, payer: { fullName: 'Maria', document: '52998224725' } },
  })
  t.equal(res.statusCode, 401, res.body)
  t.equal(app.sandbox.store.transactionsOf(a.accountId).length, 0, 'no charge')
})

t.test('a token issued before a full reset, an account reset or an import is 401 after it; a new one works', async t => {
  const app = await buildTestApp(t)
  const balance = (token: string) => app.inject({ method: 'GET', url: '/balance', headers: bearer(token) })
  const cases: Array<[string, (a: CreatedAccount) => Promise<unknown>]> = [
    ['full reset', () => post(app, '/__sandbox/reset')],
    ['account reset', a => post(app, '/__sandbox/reset', { accountId: a.accountId })],
    ['snapshot import', async () => {
      const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
      const res = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })
      if (res.statusCode !== 200) throw new Error(res.body)
    }],
  ]
  for (const [what, act] of cases) {
    const a = await newAccount(app)
    const fixture = await tokenFor(app)
    t.equal((await balance(a.token)).statusCode, 200)
    await act(a)
    t.equal((await balance(a.token)).statusCode, 401, `${what}: the account's token`)
    if (what !== 'account reset') t.equal((await balance(fixture)).statusCode, 401, `${what}: the fixture account's token too`)
    else t.equal((await balance(fixture)).statusCode, 200, `${what}: another account's token still works`)
    if (what === 'account reset') t.equal((await balance(await tokenFor(app, a))).statusCode, 200, `${what}: a new token works`)
    t.equal((await balance(await tokenFor(app))).statusCode, 200, `${what}: a new token of the fixture account works`)
  }
})

t.test('a restart with --data keeps tokens valid; a data file written before incarnations loads, and its accounts take one when replaced', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-token-binding-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'state.json')
  const start = () => buildApp({ config: { data: file, seed: 'binding', clock: 'frozen', clockStart: T0, jwtSecret: 'token-binding-test-jwt-secret' } })
  const balance = (app: App, token: string) => app.inject({ method: 'GET', url: '/balance', headers: bearer(token) })

  let app = await start()
  const a = await newAccount(app)
  const fixture = await tokenFor(app)
  await app.close()
  app = await start()
  t.equal((await balance(app, a.token)).statusCode, 200, 'a created account\'s token after a restart')
  t.equal((await balance(app, fixture)).statusCode, 200, 'the fixture account\'s token after a restart')
  await app.close()

  // As a sandbox that had no incarnations wrote it (a graceful stop leaves the whole state in the file).
  const doc = JSON.parse(readFileSync(file, 'utf8'))
  for (const account of Object.values(doc.accounts) as Array<{ incarnation?: string }>) delete account.incarnation
  writeFileSync(file, JSON.stringify(doc))
  app = await start()
  const old = await tokenFor(app, a)
  await app.close()
  app = await start()
  t.teardown(() => app.close())
  t.equal((await balance(app, old)).statusCode, 200, 'a token of an account without incarnation survives a restart')
  await post(app, '/__sandbox/reset', { accountId: a.accountId })
  t.equal((await balance(app, old)).statusCode, 401, 'and ends with the account\'s reset')
  t.equal((await balance(app, await tokenFor(app, a))).statusCode, 200)

  const legacy = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  for (const account of Object.values(legacy.accounts) as Array<{ incarnation?: string }>) delete account.incarnation
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: legacy })).statusCode, 200, 'a snapshot without incarnations imports')
  t.ok(app.sandbox.store.accounts().every(account => typeof account.incarnation === 'string'), 'and each of its accounts takes one')
})
