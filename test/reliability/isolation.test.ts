import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { createSigner } from 'fast-jwt'
import { bearer, buildTestApp, certHeader, newAccount, type CreatedAccount } from '../helpers/app.js'
import { cashInBody, createCashIn, payCode } from '../helpers/payins.js'
import { cashOutBody, CPF_MARIA } from '../helpers/payouts.js'
import { shapeProblem } from '../helpers/reliability.js'

/**
 * The isolation matrix (docs/reliability.md): a token of account B is refused (404) or sees nothing of account A's
 * on every public route that names a resource or lists records; tampered, `alg: none`, wrong-key,
 * other-algorithm and expired tokens are 401 on every protected route; a certificate of another account
 * is 403; with the admin token setting on, every /__sandbox route but health refuses a request without it.
 */
const JWT_SECRET = 'isolation-test-jwt-secret-0123456789'
const TXID = 'isolationtxidaaaaaaaaaaaaaa01'

type App = FastifyInstance

interface Ledger { balance: unknown, totals: unknown, transactions: number }
function ledgerOf (app: App, accountId: number): Ledger {
  const a = app.sandbox.store.account(accountId)!
  return structuredClone({ balance: a.balance, totals: a.totals, transactions: app.sandbox.store.transactionsOf(accountId).length })
}

async function worldOfA (app: App) {
  const a = await newAccount(app, { balance: 1000 })
  const b = await newAccount(app, { balance: 1000 })
  const charge = await createCashIn(app, a.token, cashInBody({ value: 100 }))
  const paid = (await payCode(app, charge.pixCode)).json()
  const unpaid = await createCashIn(app, a.token, cashInBody({ value: 7 }))
  const cob = await app.inject({ method: 'PUT', url: `/cob/${TXID}`, headers: bearer(a.token), payload: { calendario: { expiracao: 3600 }, valor: { original: '5.00' } } })
  if (cob.statusCode !== 201) throw new Error(cob.body)
  const dev = await app.inject({ method: 'PUT', url: `/pix/${paid.endToEndId}/devolucao/dev1`, headers: bearer(a.token), payload: { valor: '1.00' } })
  if (dev.statusCode !== 201) throw new Error(dev.body)
  const refund = await app.inject({ method: 'POST', url: `/api/pix/refund-in/${paid.transactionId}`, headers: bearer(a.token), payload: { refundValue: 1, externalId: 'refundA1' } })
  if (refund.statusCode !== 201) throw new Error(refund.body)
  const med = await app.inject({ method: 'POST', url: '/__sandbox/med', payload: { endToEndId: paid.endToEndId, reason: 'REFUND_REQUEST', cause: 'UNAUTHORIZED_TRANSACTION' } })
  if (med.statusCode !== 201) throw new Error(med.body)
  const externalId = 'shared-external-id'
  const out = await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(a.token), payload: cashOutBody({ externalId }) })
  if (out.statusCode !== 201) throw new Error(out.body)
  const idempotencyKey = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b'
  const dict = await app.inject({ method: 'POST', url: '/dict/pix', headers: { ...bearer(a.token), 'x-idempotency-key': idempotencyKey }, payload: { pixKey: CPF_MARIA, payment: { currency: 'BRL', amount: 2 } } })
  if (dict.statusCode !== 201) throw new Error(dict.body)
  const hook = await app.inject({ method: 'POST', url: '/api/webhooks', headers: bearer(a.token), payload: { url: 'https://a.example.com/hook', eventType: 'cash_out' } })
  if (hook.statusCode !== 200 || hook.json().success !== true) throw new Error(hook.body)
  return { a, b, paid, unpaid, externalId, idempotencyKey, dictId: dict.json().id as number, cashOutId: out.json().transactionId as string }
}

t.test('a token of account B never reaches the records of account A', async t => {
  const app = await buildTestApp(t, { publicWebhooks: 'enabled', jwtSecret: JWT_SECRET })
  const w = await worldOfA(app)
  const { a, b, paid } = w
  const before = ledgerOf(app, a.accountId)
  const asB = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { ...bearer(b.token), ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) })

  const expectRefused = async (label: string, res: Awaited<ReturnType<typeof asB>>, family: 'extended' | 'simple') => {
    t.equal(res.statusCode, 404, `${label}: 404 for B`)
    t.equal(shapeProblem(family, res.statusCode, res.body), null, `${label}: ${family} shape`)
    t.notMatch(res.body, /"(available|amount|valor|grossBalance)"/, `${label}: nothing of A's in the answer`)
  }

  await expectRefused('refund-in of A\'s payment by transactionId', await asB('POST', `/api/pix/refund-in/${paid.transactionId}`, { refundValue: 1 }), 'extended')
  await expectRefused('refund-in of A\'s payment by endToEndId', await asB('POST', `/api/pix/refund-in/${paid.endToEndId}`, { refundValue: 1 }), 'extended')
  await expectRefused('refund-in of A\'s refund-in transaction', await asB('POST', `/api/pix/refund-in/${w.cashOutId}`, { refundValue: 1 }), 'extended')
  await expectRefused('GET A\'s cob', await asB('GET', `/cob/${TXID}`), 'simple')
  await expectRefused('PATCH (cancel) A\'s cob', await asB('PATCH', `/cob/${TXID}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }), 'simple')
  await expectRefused('PUT devolução on A\'s received PIX', await asB('PUT', `/pix/${paid.endToEndId}/devolucao/devB`, { valor: '1.00' }), 'simple')
  await expectRefused('GET A\'s devolução', await asB('GET', `/pix/${paid.endToEndId}/devolucao/dev1`), 'simple')
  await expectRefused('GET A\'s refund-in as a devolução', await asB('GET', `/pix/${paid.endToEndId}/devolucao/refundA1`), 'simple')

  // Identifiers are per account: B reusing A's externalId, idempotency key or txid gets its own record.
  const out = await asB('POST', '/api/pix/cash-out', cashOutBody({ externalId: w.externalId }))
  t.equal(out.statusCode, 201, 'B may use an externalId A used (no PIX_DUPLICATE_EXTERNAL_ID leaking A\'s transaction id)')
  t.notMatch(out.body, /existingTransactionId/)
  const dict = await asB('POST', '/dict/pix', { pixKey: CPF_MARIA, payment: { currency: 'BRL', amount: 3 } }, { 'x-idempotency-key': w.idempotencyKey })
  t.equal(dict.statusCode, 201)
  t.not(dict.json().id, w.dictId, 'the same idempotency key under B creates B\'s transfer, not A\'s answer')
  t.equal(dict.json().payment.amount, 3)
  const cobB = await asB('PUT', `/cob/${TXID}`, { calendario: { expiracao: 60 }, valor: { original: '9.00' } })
  t.equal(cobB.statusCode, 201, 'B may create a cob with the txid A used')
  const cobA = await app.inject({ method: 'GET', url: `/cob/${TXID}`, headers: bearer(a.token) })
  t.equal(cobA.json().valor.original, '5.00', 'A\'s cob is untouched by B\'s')
  t.equal(cobA.json().status, 'ATIVA')

  // Lists and balances show B's own records only.
  const medB = await asB('GET', '/api/med')
  t.equal(medB.statusCode, 200)
  t.same([medB.json().data, medB.json().metadata.total], [[], 0], 'GET /api/med: none of A\'s disputes')
  const medA = await app.inject({ method: 'GET', url: '/api/med', headers: bearer(a.token) })
  t.equal(medA.json().metadata.total, 1, 'A sees its dispute (the test would prove nothing otherwise)')
  const hooksB = await asB('GET', '/api/webhooks')
  t.same([hooksB.json().accountId, hooksB.json().total], [b.accountId, 0], 'GET /api/webhooks: none of A\'s registrations')
  t.equal((await app.inject({ method: 'GET', url: '/api/webhooks', headers: bearer(a.token) })).json().total, 1)
  const balB = (await asB('GET', '/balance')).json()
  const ownB = app.sandbox.store.account(b.accountId)!.balance
  t.equal(Math.round(balB.netBalance * 100), ownB.availableCents, '/balance is B\'s')
  const cbB = (await asB('GET', '/accounts/balances')).json()
  t.equal(Math.round(cbB.data[0].balanceAmount.available * 100), ownB.availableCents, '/accounts/balances is B\'s')

  // By design, a QR code is payable by anyone: B paying A's charge is a payment, not a leak (docs/gateway.md §2.5).
  const qr = await asB('POST', '/api/pix/cash-out-qrcode', { value: 7, qrCode: w.unpaid.pixCode, externalId: 'b-pays-a' })
  t.equal(qr.statusCode, 201, 'B may pay A\'s charge by its QR code (allowed by design)')
  t.same(Object.keys(qr.json()).sort(), ['externalId', 'generateTime', 'status', 'transactionId'], 'the answer carries B\'s payment, nothing of A\'s charge')

  t.same(ledgerOf(app, a.accountId), before, 'nothing B did changed A\'s ledger or records')
})

/** Every route of the public API that needs a bearer token (the gateway's, or API Pix's OAuth token), from the generated OpenAPI document. */
async function protectedRoutes (app: App): Promise<Array<{ method: string, url: string }>> {
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
  const out: Array<{ method: string, url: string }> = []
  for (const [path, ops] of Object.entries(doc.paths) as Array<[string, Record<string, { security?: Array<Record<string, unknown>> }>]>) {
    for (const [method, op] of Object.entries(ops)) {
      if (!op.security?.some(s => 'bearer' in s || 'oauth2' in s)) continue
      const url = path.replace('{txid}', TXID).replace('{e2eid}', 'E9999900420260310150000000000001').replace('{id}', 'x1')
      out.push({ method: method.toUpperCase(), url })
    }
  }
  return out
}

function b64url (v: unknown): string {
  return Buffer.from(JSON.stringify(v)).toString('base64url')
}

t.test('tampered, alg none, wrong-key, other-algorithm and expired tokens are 401 on every protected route', async t => {
  const app = await buildTestApp(t, { jwtSecret: JWT_SECRET })
  const a = await newAccount(app, { balance: 100 })
  const [header, payload, signature] = a.token.split('.')
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString())
  const nowS = Math.floor(app.sandbox.clock.now() / 1000)
  const sign = (key: string, algorithm: 'HS256' | 'HS384' | 'HS512', c: Record<string, unknown>) => createSigner({ key, algorithm })(c)
  const flip = (s: string) => s.slice(0, -2) + (s.at(-2) === 'A' ? 'B' : 'A') + s.at(-1)
  const bad: Record<string, string> = {
    'payload tampered (another account)': `${header}.${b64url({ ...claims, sub: '1' })}.${signature}`,
    'payload tampered (later expiry)': `${header}.${b64url({ ...claims, exp: claims.exp + 86_400 })}.${signature}`,
    'signature tampered': `${header}.${payload}.${flip(signature)}`,
    'alg none, no signature': `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`,
    'alg none, signature kept': `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.${signature}`,
    'alg None (case)': `${b64url({ alg: 'None', typ: 'JWT' })}.${payload}.`,
    'wrong key': sign('another-secret-of-at-least-32-chars!!', 'HS256', claims),
    'right key, HS512': sign(JWT_SECRET, 'HS512', claims),
    'right key, expired': sign(JWT_SECRET, 'HS256', { ...claims, iat: nowS - 4000, exp: nowS - 1 }),
    'right key, no exp': sign(JWT_SECRET, 'HS256', { sub: claims.sub, clientId: claims.clientId, iat: nowS, jti: 'x' }),
    'right key, unknown account': sign(JWT_SECRET, 'HS256', { ...claims, sub: '999999' }),
    'right key, clientId of another account': sign(JWT_SECRET, 'HS256', { ...claims, clientId: 'pix-sandbox-client' }),
    'two parts only': `${header}.${payload}`,
    garbage: 'not-a-jwt',
  }
  const routes = await protectedRoutes(app)
  t.ok(routes.length >= 14, `${routes.length} protected routes found in /openapi.json`)
  for (const r of ['GET /balance', 'GET /accounts/balances', 'POST /api/pix/cash-out', 'PUT /cob/{txid}', 'GET /api/med', 'POST /api/webhooks', 'PUT /v2/cob/{txid}', 'GET /v2/loc']) {
    const [m, p] = r.split(' ')
    t.ok(routes.some(x => x.method === m && x.url === p.replace('{txid}', TXID)), `${r} is among them`)
  }
  const before = ledgerOf(app, a.accountId)
  let checked = 0
  const wrong: string[] = []
  for (const route of routes) {
    for (const [label, token] of Object.entries(bad)) {
      const res = await app.inject({ method: route.method as 'GET', url: route.url, headers: bearer(token), ...(route.method === 'GET' ? {} : { payload: {} }) })
      checked++
      const family = route.url.startsWith('/v2/') ? 'problem' : route.url.startsWith('/api/') || route.url === '/balance' ? 'extended' : 'simple'
      if (res.statusCode !== 401) wrong.push(`${route.method} ${route.url} with ${label}: ${res.statusCode}`)
      else if (shapeProblem(family, 401, res.body)) wrong.push(`${route.method} ${route.url} with ${label}: ${shapeProblem(family, 401, res.body)}`)
    }
    const none = await app.inject({ method: route.method as 'GET', url: route.url })
    if (none.statusCode !== 401) wrong.push(`${route.method} ${route.url} without a token: ${none.statusCode}`)
  }
  t.same(wrong, [], `${checked} requests with a bad token, all 401 in the family's shape`)
  t.same(ledgerOf(app, a.accountId), before, 'nothing changed')
  // The genuine token still works, so the 401s above are about the tokens.
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(a.token) })).statusCode, 200)
  // And the token really expires after its 1800 s of sandbox time.
  await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 1800 * 1000 } })
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(a.token) })).statusCode, 401, 'an expired genuine token is 401')
})

t.test('a certificate of another account (or none linked) is refused at token issuance', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app)
  const b = await newAccount(app)
  const token = (creds: CreatedAccount, cert: string) => app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': certHeader(cert) }, payload: { clientId: creds.clientId, clientSecret: creds.clientSecret } })
  const other = await token(a, b.certificate)
  t.equal(other.statusCode, 403, 'A\'s credentials with B\'s certificate: 403')
  t.equal(shapeProblem('simple', 403, other.body), null)
  t.equal((await token(b, a.certificate)).statusCode, 403, 'and the other way round')
  const wrongSecret = await app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': certHeader(a.certificate) }, payload: { clientId: a.clientId, clientSecret: b.clientSecret } })
  t.equal(wrongSecret.statusCode, 401, 'A\'s client id with B\'s secret: 401')
  t.equal((await token(a, a.certificate)).statusCode, 201, 'the right pair works')
})

t.test('with an admin token, every /__sandbox route but health refuses requests without it', async t => {
  const ADMIN = 'admin-token-of-the-isolation-test'
  const app = await buildTestApp(t, { adminToken: ADMIN })
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json()
  const routes: Array<{ method: string, url: string }> = []
  for (const [path, ops] of Object.entries(doc.paths) as Array<[string, Record<string, unknown>]>) {
    if (!path.startsWith('/__sandbox')) continue
    for (const method of Object.keys(ops)) routes.push({ method: method.toUpperCase(), url: path.replace(/\{[^}]+\}/g, '1') })
  }
  t.ok(routes.length >= 30, `${routes.length} control-plane routes in /openapi.json`)
  const wrong: string[] = []
  const attempts: Array<[string, Record<string, string>]> = [
    ['no token', {}],
    ['wrong X-Sandbox-Admin-Token', { 'x-sandbox-admin-token': ADMIN + 'x' }],
    ['wrong bearer', { authorization: `Bearer ${ADMIN.slice(0, -1)}` }],
    ['prefix of the token', { 'x-sandbox-admin-token': ADMIN.slice(0, 8) }],
    ['empty header', { 'x-sandbox-admin-token': '' }],
  ]
  for (const route of routes) {
    for (const [label, headers] of attempts) {
      const res = await app.inject({ method: route.method as 'GET', url: route.url, headers, ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }) })
      if (route.url === '/__sandbox/health') {
        if (res.statusCode !== 200) wrong.push(`health with ${label}: ${res.statusCode}`)
      } else if (res.statusCode !== 401 || res.json().code !== 'ADMIN_TOKEN_REQUIRED') wrong.push(`${route.method} ${route.url} with ${label}: ${res.statusCode} ${res.body.slice(0, 100)}`)
    }
  }
  // The dashboard's own pages and files are not control-plane data; the query string does not help either.
  for (const url of ['/__sandbox/accounts?x-sandbox-admin-token=' + ADMIN, '/__sandbox//accounts', '/__sandbox/accounts/', '/__SANDBOX/accounts', '/__sandbox/%61ccounts']) {
    const res = await app.inject({ method: 'GET', url })
    if (res.statusCode === 200) wrong.push(`GET ${url}: 200 without the admin token`)
  }
  t.same(wrong, [], `${routes.length * attempts.length} requests`)
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts', headers: { 'x-sandbox-admin-token': ADMIN } })).statusCode, 200, 'with the token it answers')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts', headers: { authorization: `Bearer ${ADMIN}` } })).statusCode, 200, 'as a bearer too')
})
