import t from 'tap'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { buildBrCode } from '../../server/domain/brcode.js'
import { bearer, buildTestApp, certHeader, fixtureAccount, newAccount } from '../helpers/app.js'
import { aTxid, cashInBody, createCashIn, payCode, receiveIncoming } from '../helpers/payins.js'
import { advance, cashOut, cashOutBody, CPF_MARIA, JOAO } from '../helpers/payouts.js'

/**
 * docs/scenarios.md: an unknown X-Sandbox-Scenario name is a 400 listing the valid ones, on every
 * operation of both gateway families (a read or the token take no scenario, so every name is unknown
 * there) and on every control-plane operation that reads the header; and it changes nothing.
 */

interface Fixture { token: string, accountId: number, cashInId: string, e2e: string, txid: string, cashOutId: string, medId: number }

async function setUp (app: FastifyInstance): Promise<Fixture> {
  const acc = await newAccount(app, { balance: 100, fee: 0 })
  const charge = await createCashIn(app, acc.token, cashInBody({ value: 20 }))
  const e2e = (await payCode(app, charge.pixCode)).json().endToEndId as string
  const txid = aTxid(1)
  await app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: bearer(acc.token), payload: { calendario: { expiracao: 3600 }, valor: { original: '5.00' } } })
  const out = await cashOut(app, acc.token, cashOutBody({ value: 1 }))
  await advance(app, 100)
  const med = await app.inject({ method: 'POST', url: '/__sandbox/med', payload: { endToEndId: e2e, reason: 'REFUND_REQUEST' } })
  return { token: acc.token, accountId: acc.accountId, cashInId: charge.transactionId, e2e, txid, cashOutId: out.json().transactionId, medId: med.json().id }
}

const day = 'inicio=2026-03-10T00:00:00Z&fim=2026-03-10T23:59:59Z'

/** One well-formed request per gateway operation, by operationId: only the scenario header is wrong. */
function gatewayRequests (f: Fixture): Record<string, InjectOptions> {
  const auth = bearer(f.token)
  const staticCode = buildBrCode({ key: JOAO.key, merchantName: 'JOAO', merchantCity: 'RECIFE' })
  return {
    createToken: { method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': certHeader(fixtureAccount.certificate) }, payload: { clientId: fixtureAccount.clientId, clientSecret: fixtureAccount.clientSecret } },
    getBalance: { method: 'GET', url: '/balance', headers: auth },
    getApiBalance: { method: 'GET', url: '/api/balance', headers: auth },
    cashOut: { method: 'POST', url: '/api/pix/cash-out', headers: auth, payload: cashOutBody({ value: 1 }) },
    cashOutQrCode: { method: 'POST', url: '/api/pix/cash-out-qrcode', headers: auth, payload: { value: 1, qrCode: staticCode, externalId: 'qr-nope' } },
    cashIn: { method: 'POST', url: '/api/pix/cash-in', headers: auth, payload: cashInBody() },
    refundIn: { method: 'POST', url: `/api/pix/refund-in/${f.cashInId}`, headers: auth, payload: { refundValue: 1 } },
    listMed: { method: 'GET', url: '/api/med', headers: auth },
    registerWebhook: { method: 'POST', url: '/api/webhooks', headers: auth, payload: { url: 'https://example.com/hook', eventType: 'cash_in' } },
    listWebhooks: { method: 'GET', url: '/api/webhooks', headers: auth },
    getBalances: { method: 'GET', url: '/accounts/balances', headers: auth },
    dictTransfer: { method: 'POST', url: '/dict/pix', headers: { ...auth, 'x-idempotency-key': '7c1d2e3f-4a5b-4c6d-8e7f-000000000001' }, payload: { pixKey: CPF_MARIA, payment: { currency: 'BRL', amount: 1 } } },
    createCob: { method: 'PUT', url: `/cob/${aTxid(2)}`, headers: auth, payload: { calendario: { expiracao: 3600 }, valor: { original: '5.00' } } },
    createCobWithGeneratedTxid: { method: 'POST', url: '/cob', headers: auth, payload: { calendario: { expiracao: 3600 }, valor: { original: '5.00' } } },
    getCob: { method: 'GET', url: `/cob/${f.txid}`, headers: auth },
    reviseCob: { method: 'PATCH', url: `/cob/${f.txid}`, headers: auth, payload: { solicitacaoPagador: 'novo texto' } },
    listCobs: { method: 'GET', url: `/cob?${day}`, headers: auth },
    createDevolucao: { method: 'PUT', url: `/pix/${f.e2e}/devolucao/d1`, headers: auth, payload: { valor: '1.00' } },
    getDevolucao: { method: 'GET', url: `/pix/${f.e2e}/devolucao/d1`, headers: auth },
    getReceivedPix: { method: 'GET', url: `/pix/${f.e2e}`, headers: auth },
    listReceivedPix: { method: 'GET', url: `/pix?${day}`, headers: auth },
  }
}

const withScenario = (req: InjectOptions, scenario: string): InjectOptions => ({ ...req, headers: { ...req.headers, 'x-sandbox-scenario': scenario } })

t.test('every gateway operation answers 400 UNKNOWN_SCENARIO to an unknown name, before anything happens', async t => {
  const app = await buildTestApp(t)
  const f = await setUp(app)
  const requests = gatewayRequests(f)
  const doc = app.swagger() as unknown as { paths: Record<string, Record<string, { operationId: string, tags?: string[] }>> }
  const gateway = Object.values(doc.paths).flatMap(item => Object.values(item)).filter(op => op.tags?.some(tag => tag === 'Standard' || tag === 'Central bank')).map(op => op.operationId)
  t.same(Object.keys(requests).sort(), [...new Set(gateway)].sort(), 'one request per gateway operation of the OpenAPI document')

  for (const [operationId, request] of Object.entries(requests)) {
    const before = JSON.stringify(app.sandbox.store.data)
    const res = await app.inject(withScenario(request, 'NOPE'))
    t.equal(res.statusCode, 400, `${operationId}: ${res.body}`)
    const body = res.json()
    t.match(body.message, /Cenário desconhecido para .*NOPE.*Cenários válidos para/, operationId)
    const url = String(request.url)
    if ((url.startsWith('/api/') || url === '/balance') && operationId !== 'createToken') t.match(body, { code: 'UNKNOWN_SCENARIO', errorCode: 'UNKNOWN_SCENARIO', details: { validScenarios: Array } }, operationId)
    else t.same(Object.keys(body).sort(), ['error', 'message', 'statusCode'], `${operationId}: the simple shape`)
    t.equal(JSON.stringify(app.sandbox.store.data), before, `${operationId}: nothing changed`)
    // The same request without the header is accepted: the scenario alone was refused.
    t.ok((await app.inject(request)).statusCode < 400 || operationId === 'getDevolucao', `${operationId} without the header`)
  }
  // A name of the catalogue is unknown where it does not apply: a read takes the transport faults only.
  const balance = await app.inject(withScenario(requests.getBalance, 'INSUFFICIENT_FUNDS'))
  t.equal(balance.statusCode, 400)
  t.match(balance.json(), { code: 'UNKNOWN_SCENARIO', message: /Cenários válidos para balance: LATENCY, TIMEOUT, CONNECTION_RESET, RATE_LIMITED, SERVICE_UNAVAILABLE$/ })
  t.same(balance.json().details.validScenarios, ['LATENCY', 'TIMEOUT', 'CONNECTION_RESET', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE'])
  // A repeated directory transfer answers its stored transfer, yet an unknown scenario is still refused.
  const repeat = await app.inject(withScenario(requests.dictTransfer, 'NOPE'))
  t.equal(repeat.statusCode, 400)
  // A known scenario still works on its own operation.
  const insufficient = await app.inject(withScenario({ ...requests.cashOut, payload: cashOutBody({ value: 1 }) }, 'INSUFFICIENT_FUNDS'))
  t.equal(insufficient.json().errorCode, 'PIX_INSUFFICIENT_BALANCE')
})

t.test('every control-plane operation that reads the header refuses an unknown name, in English, and changes nothing', async t => {
  const app = await buildTestApp(t)
  const f = await setUp(app)
  const cashIn = await createCashIn(app, f.token, cashInBody({ value: 3 }))
  const other = await receiveIncoming(app, f.accountId, 2)
  const requests: Record<string, InjectOptions> = {
    sandboxPay: { method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: cashIn.pixCode } },
    sandboxReceivePix: { method: 'POST', url: '/__sandbox/pix/incoming', payload: { accountId: f.accountId, amount: 1 } },
    sandboxOpenMed: { method: 'POST', url: '/__sandbox/med', payload: { endToEndId: other.endToEndId, reason: 'REFUND_REQUEST' } },
    sandboxTransitionMed: { method: 'POST', url: `/__sandbox/med/${f.medId}/transition`, payload: { status: 'RECEIVED' } },
    sandboxTestWebhook: { method: 'POST', url: '/__sandbox/webhooks/test', payload: { accountId: f.accountId, eventType: 'cash_in' } },
    sandboxRefundReceived: { method: 'POST', url: `/__sandbox/transactions/${f.cashOutId}/refund-received`, payload: {} },
  }
  for (const [operationId, request] of Object.entries(requests)) {
    const before = JSON.stringify(app.sandbox.store.data)
    const res = await app.inject(withScenario(request, 'NOPE'))
    t.equal(res.statusCode, 400, `${operationId}: ${res.body}`)
    t.match(res.json(), { code: 'UNKNOWN_SCENARIO', message: /^Unknown scenario for [a-z-]+: NOPE\. Valid scenarios for/ }, operationId)
    t.equal(JSON.stringify(app.sandbox.store.data), before, `${operationId}: nothing changed`)
  }
})
