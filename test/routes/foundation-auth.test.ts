import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { createSigner } from 'fast-jwt'
import { buildTestApp, bearer, certHeader, fixtureAccount, newAccount, tokenFor } from '../helpers/app.js'

/**
 * Bearer tokens on every protected route of the foundation (docs/gateway.md §5 item 6, §7.9): missing, malformed,
 * tampered, unsigned, foreign, expired (by the sandbox clock) and orphaned tokens are 401 in the
 * family's shape; a token is scoped to its account.
 */

const protectedRoutes = [
  { url: '/balance', family: 'extended' },
  { url: '/api/balance', family: 'extended' },
  { url: '/accounts/balances', family: 'simple' },
] as const

const b64 = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url')
const claimsOf = (token: string): Record<string, unknown> => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'))

async function expect401 (t: Test, app: FastifyInstance, authorization: string | undefined, why: string) {
  for (const route of protectedRoutes) {
    const res = await app.inject({ method: 'GET', url: route.url, headers: authorization === undefined ? {} : { authorization } })
    t.equal(res.statusCode, 401, `${why}: ${route.url} is 401`)
    const body = res.json()
    t.equal(body.statusCode, 401)
    t.notOk('grossBalance' in body || 'data' in body, 'no balance leaks')
    if (route.family === 'extended') {
      t.same(Object.keys(body).sort(), ['code', 'error', 'errorId', 'message', 'method', 'path', 'statusCode', 'timestamp', 'userMessage'], `${route.url}: extended shape`)
      t.equal(body.path, route.url.replace(/^\/api/, ''))
      t.equal(body.method, 'GET')
      t.equal(body.error, 'Unauthorized')
      t.type(body.message, 'string')
    } else {
      t.same(Object.keys(body).sort(), ['error', 'message', 'statusCode'], `${route.url}: simple shape`)
    }
  }
}

t.test('missing Authorization header', async t => {
  const app = await buildTestApp(t)
  await expect401(t, app, undefined, 'missing')
})

t.test('malformed Authorization headers', async t => {
  const app = await buildTestApp(t)
  await expect401(t, app, 'Basic x', 'Basic scheme')
  await expect401(t, app, 'Bearer', 'Bearer without token')
  await expect401(t, app, 'Bearer a b', 'two tokens')
  await expect401(t, app, 'Bearer not.a.jwt', 'not a JWT')
  await expect401(t, app, await tokenFor(app), 'token without the Bearer scheme')
})

t.test('tampered tokens', async t => {
  const app = await buildTestApp(t)
  const other = await newAccount(app)
  const token = await tokenFor(app)
  const [h, p, s] = token.split('.')
  // Change a character in the middle of the signature (the last one may only carry padding bits).
  const i = Math.floor(s.length / 2)
  const badSig = s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1)
  await expect401(t, app, `Bearer ${h}.${p}.${badSig}`, 'tampered signature')
  // Point the token at another account while keeping the original signature.
  const forged = b64({ ...claimsOf(token), sub: String(other.accountId), clientId: other.clientId })
  await expect401(t, app, `Bearer ${h}.${forged}.${s}`, 'tampered payload')
  // Extend the expiry.
  const longer = b64({ ...claimsOf(token), exp: 4102444800 })
  await expect401(t, app, `Bearer ${h}.${longer}.${s}`, 'tampered exp')
})

t.test('an unsigned token (alg none) is refused', async t => {
  const app = await buildTestApp(t)
  const claims = claimsOf(await tokenFor(app))
  const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`
  await expect401(t, app, `Bearer ${none}`, 'alg none')
})

t.test('a token signed with another secret is refused', async t => {
  const app = await buildTestApp(t)
  const claims = claimsOf(await tokenFor(app))
  const foreign = createSigner({ key: 'another-secret-entirely-0123456789', algorithm: 'HS256' })(claims)
  await expect401(t, app, `Bearer ${foreign}`, 'foreign secret')
})

t.test('a token from another sandbox process (other random secret) is refused', async t => {
  const a = await buildTestApp(t)
  const b = await buildTestApp(t)
  await expect401(t, b, `Bearer ${await tokenFor(a)}`, 'other process')
})

t.test('expiry follows the sandbox clock: valid at 1799 s, 401 at 1800 s', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  const advance = (ms: number) => app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms } })
  t.equal((await advance(1_799_000)).statusCode, 200)
  for (const route of protectedRoutes) {
    t.equal((await app.inject({ method: 'GET', url: route.url, headers: bearer(token) })).statusCode, 200, `${route.url} still valid at 1799 s`)
  }
  t.equal((await advance(1_000)).statusCode, 200)
  await expect401(t, app, `Bearer ${token}`, 'expired')
  // A new token issued now works again.
  const fresh = await tokenFor(app)
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(fresh) })).statusCode, 200)
})

t.test('a token expires with advance { ms: 1800000 } in one step', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 1_800_000 } })).statusCode, 200)
  await expect401(t, app, `Bearer ${token}`, 'expired')
})

t.test('the token of an account removed by a full reset is 401, even when a new account reuses its id', async t => {
  const app = await buildTestApp(t)
  const b = await newAccount(app)
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(b.token) })).statusCode, 200)
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset' })).statusCode, 200)
  await expect401(t, app, `Bearer ${b.token}`, 'account removed')
  const again = await newAccount(app, { balance: 5 })
  t.equal(again.accountId, b.accountId, 'the id is reused after a full reset')
  await expect401(t, app, `Bearer ${b.token}`, 'id reused by another account')
  // The fixture account is restored by the reset with the same credentials: its old token still works.
  const fixtureToken = await tokenFor(app)
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(fixtureToken) })).statusCode, 200)
})

t.test('a token is scoped to its account: B sees B, never A', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 111.11 })
  const b = await newAccount(app, { balance: 222.22 })
  const fixture = await tokenFor(app)
  const net = async (token: string) => (await app.inject({ method: 'GET', url: '/balance', headers: bearer(token) })).json().netBalance
  const available = async (token: string) => (await app.inject({ method: 'GET', url: '/accounts/balances', headers: bearer(token) })).json().data[0].balanceAmount.available
  t.equal(await net(a.token), 111.11)
  t.equal(await net(b.token), 222.22)
  t.equal(await net(fixture), 10000)
  t.equal(await available(b.token), 222.22)
  t.equal(await available(a.token), 111.11)
  // Changing A's balance changes nothing for B.
  await app.inject({ method: 'POST', url: `/__sandbox/accounts/${a.accountId}/balance`, payload: { credit: 10 } })
  t.equal(await net(a.token), 121.11)
  t.equal(await net(b.token), 222.22)
})

t.test('the token route itself needs no bearer, and a bad bearer on it is ignored', async t => {
  const app = await buildTestApp(t)
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/token',
    headers: { authorization: 'Bearer garbage', 'x-ssl-client-cert': certHeader(fixtureAccount.certificate) },
    payload: { clientId: fixtureAccount.clientId, clientSecret: fixtureAccount.clientSecret },
  })
  t.equal(res.statusCode, 201)
})
