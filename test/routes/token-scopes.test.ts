import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { API_PIX_SCOPES, type ApiPixScope } from '../../server/domain/scopes.js'
import { balanceOf, bearer, buildTestApp, fixtureAccount, newAccount, tokenFor } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'
import { cashOutBody } from '../helpers/payouts.js'
import { shapeProblem } from '../helpers/reliability.js'

/**
 * A token's scopes mean the same on every route (docs/api-pix.md, Scopes): a token of POST /oauth/token
 * issued for some scopes acts within them on the gateway's routes too. The gateway's operations
 * that are BACEN's own (cob, pix, devolução) need the scope API Pix gives them; the gateway's other
 * operations are in no scope, so only a token of the account's whole grant (or the gateway's own token,
 * which has no scopes: docs/gateway.md §5) acts there.
 */

/** Every operation of the gateway's families behind a bearer token, and the scope of API Pix that covers it (null: none does). */
const GATEWAY_OPERATIONS: Record<string, { method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, scope: ApiPixScope | null }> = {
  getBalance: { method: 'GET', url: '/balance', scope: null },
  getApiBalance: { method: 'GET', url: '/api/balance', scope: null },
  cashOut: { method: 'POST', url: '/api/pix/cash-out', scope: null },
  cashOutQrCode: { method: 'POST', url: '/api/pix/cash-out-qrcode', scope: null },
  cashIn: { method: 'POST', url: '/api/pix/cash-in', scope: null },
  refundIn: { method: 'POST', url: '/api/pix/refund-in/x', scope: null },
  listMed: { method: 'GET', url: '/api/med', scope: null },
  registerWebhook: { method: 'POST', url: '/api/webhooks', scope: null },
  listWebhooks: { method: 'GET', url: '/api/webhooks', scope: null },
  getBalances: { method: 'GET', url: '/accounts/balances', scope: null },
  dictTransfer: { method: 'POST', url: '/dict/pix', scope: null },
  createCob: { method: 'PUT', url: '/cob/scopestxid000000000000000001', scope: 'cob.write' },
  getCob: { method: 'GET', url: '/cob/scopestxid000000000000000001', scope: 'cob.read' },
  reviseCob: { method: 'PATCH', url: '/cob/scopestxid000000000000000001', scope: 'cob.write' },
  createCobWithGeneratedTxid: { method: 'POST', url: '/cob', scope: 'cob.write' },
  listCobs: { method: 'GET', url: '/cob', scope: 'cob.read' },
  createDevolucao: { method: 'PUT', url: '/pix/E00000000202603101500aaaaaaaaaaa/devolucao/d1', scope: 'pix.write' },
  getDevolucao: { method: 'GET', url: '/pix/E00000000202603101500aaaaaaaaaaa/devolucao/d1', scope: 'pix.read' },
  getReceivedPix: { method: 'GET', url: '/pix/E00000000202603101500aaaaaaaaaaa', scope: 'pix.read' },
  listReceivedPix: { method: 'GET', url: '/pix', scope: 'pix.read' },
}

const call = (app: FastifyInstance, op: keyof typeof GATEWAY_OPERATIONS, token: string) => {
  const { method, url } = GATEWAY_OPERATIONS[op]
  return app.inject({ method, url, headers: bearer(token), ...(method === 'GET' ? {} : { payload: {} }) })
}

t.test('the table names every gateway operation behind a token (a new one must say which scope covers it)', async t => {
  const app = await buildTestApp(t)
  const doc = app.swagger() as unknown as { paths: Record<string, Record<string, { operationId: string, tags?: string[], security?: Array<Record<string, unknown>> }>> }
  const operations = Object.values(doc.paths).flatMap(p => Object.values(p))
    .filter(o => o.tags?.some(tag => tag === 'Standard' || tag === 'Central bank') && o.security?.some(s => 'bearer' in s))
    .map(o => o.operationId).sort()
  t.same(operations, Object.keys(GATEWAY_OPERATIONS).sort())
})

t.test('a token of cob.read alone writes no cob at the root and makes no cash-out, as on /v2', async t => {
  const app = await buildTestApp(t)
  const before = await balanceOf(app, fixtureAccount.id)
  const readOnly = await oauthToken(app, fixtureAccount, 'cob.read')
  const v2 = await app.inject({ method: 'POST', url: '/v2/cob', headers: bearer(readOnly), payload: { valor: { original: '1.00' }, chave: 'loja@example.com' } })
  t.equal(v2.statusCode, 403, 'POST /v2/cob')

  const cob = await app.inject({ method: 'PUT', url: '/cob/scopestxid000000000000000001', headers: bearer(readOnly), payload: { calendario: { expiracao: 3600 }, valor: { original: '5.00' } } })
  t.equal(cob.statusCode, 403, 'PUT /cob/{txid} at the root')
  t.equal(shapeProblem('simple', 403, cob.body), null, 'in the central-bank family\'s simple shape')
  t.match(cob.json().message, /escopo cob\.write/)

  const out = await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(readOnly), payload: cashOutBody({ externalId: 'scoped-cash-out' }) })
  t.equal(out.statusCode, 403, 'a cash-out')
  t.equal(shapeProblem('extended', 403, out.body), null, 'in the standard family\'s extended shape')
  t.match(out.json().message, /nenhum escopo/)

  t.same(await balanceOf(app, fixtureAccount.id), before, 'no money moved')
  t.same(app.sandbox.store.transactionsOf(fixtureAccount.id).map(tx => tx.kind), [], 'no record was made')
  t.equal((await app.inject({ method: 'GET', url: '/cob/scopestxid000000000000000001', headers: bearer(readOnly) })).statusCode, 404, 'cob.read reads the root\'s cobs (there is none)')
})

t.test('each gateway operation: the scope that covers it lets a token through, any other is 403; an operation no scope covers takes only a token of the whole grant', async t => {
  const app = await buildTestApp(t)
  const gateway = await tokenFor(app)
  const whole = await oauthToken(app)
  const tokens = new Map<string, string>()
  const scoped = async (scope: string): Promise<string> => {
    if (!tokens.has(scope)) tokens.set(scope, await oauthToken(app, fixtureAccount, scope))
    return tokens.get(scope)!
  }
  // All but one scope: narrower than the grant, and every scope a covered operation needs is in it but cob.write.
  const allButOne = await scoped(API_PIX_SCOPES.filter(s => s !== 'cob.write').join(' '))
  for (const op of Object.keys(GATEWAY_OPERATIONS) as Array<keyof typeof GATEWAY_OPERATIONS>) {
    const { scope } = GATEWAY_OPERATIONS[op]
    t.not((await call(app, op, gateway)).statusCode, 403, `${op}: the gateway's token`)
    t.not((await call(app, op, whole)).statusCode, 403, `${op}: a token of /oauth/token of the whole grant`)
    const other = scope === 'pix.read' ? 'cob.read' : 'pix.read'
    t.equal((await call(app, op, await scoped(other))).statusCode, 403, `${op}: a token of ${other} alone`)
    if (scope !== null) {
      t.not((await call(app, op, await scoped(scope))).statusCode, 403, `${op}: a token of ${scope}`)
      t.equal((await call(app, op, allButOne)).statusCode === 403, scope === 'cob.write', `${op}: a token of every scope but cob.write`)
    } else {
      t.equal((await call(app, op, allButOne)).statusCode, 403, `${op}: no scope covers it, and a token of every scope but one is not the account's whole grant`)
    }
  }
})

t.test('an account granted some scopes: its gateway token acts on the gateway as the gateway\'s own (no scopes); its API Pix token keeps to the grant', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 100, scopes: ['cob.read'] })
  const created = await app.inject({ method: 'PUT', url: '/cob/scopestxid000000000000000002', headers: bearer(a.token), payload: { calendario: { expiracao: 3600 }, valor: { original: '5.00' } } })
  t.equal(created.statusCode, 201, 'the gateway\'s token: PUT /cob at the root, as the gateway describes it')
  const apiPix = await oauthToken(app, a)
  t.equal((await app.inject({ method: 'PUT', url: '/cob/scopestxid000000000000000003', headers: bearer(apiPix), payload: { calendario: { expiracao: 3600 }, valor: { original: '5.00' } } })).statusCode, 403, 'the token of API Pix lacks cob.write wherever a cob is written')
  t.equal((await app.inject({ method: 'GET', url: '/cob/scopestxid000000000000000002', headers: bearer(apiPix) })).statusCode, 200, 'and reads with cob.read')
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(apiPix) })).statusCode, 200, 'it carries the whole grant: it acts as the account where no scope applies')
})
