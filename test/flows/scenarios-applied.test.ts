import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { signDelivery } from '../../server/webhooks/signature.js'
import { balanceOf, bearer, buildTestApp, newAccount, type CreatedAccount } from '../helpers/app.js'
import { advance, cashOut, cashOutBody, JOAO } from '../helpers/payouts.js'
import { cashInBody, createCashIn, payCode } from '../helpers/payins.js'
import { startReceiver } from '../helpers/receiver.js'
import { buildBrCode } from '../../server/domain/brcode.js'
import { catalogue } from '../../scenarios/catalogue.js'
import { recBody } from '../helpers/rec.js'
import { oauthToken } from '../helpers/api-pix.js'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { apiPixViews } from '../../server/dialects/api-pix/views/index.js'

/**
 * Every scenario of the catalogue really runs (docs/scenarios.md): each is triggered the way an integrator
 * does it (the X-Sandbox-Scenario header), the request journal shows it among the entry's `scenarios`,
 * and its effect shows where it must: in the ledger (balances, the transaction's outcome) or in the
 * delivery log. A scenario added to the catalogue without a proof here fails the first test.
 */
interface Ctx { app: FastifyInstance, acc: CreatedAccount }
/** Triggers the scenario, checks its effect, and answers the status of the request that carried it. */
type Proof = (t: Test, ctx: Ctx, scenario: string) => Promise<number>

const START = 1000
const header = (scenario: string): Record<string, string> => ({ 'x-sandbox-scenario': scenario })
const tx = (app: FastifyInstance, id: string) => app.sandbox.store.transaction(id)!
/** A recurrence as API Pix shows it (RecCompleta), read without a token that the clock would expire. */
const recView = (app: FastifyInstance, idRec: string) => apiPixViews(app.sandbox).recCompleta(app.sandbox.recurrences.find(idRec))

/** Sync refusal of a pay-out: the code, and nothing reserved. */
const refusesCashOut = (code: string): Proof => async (t, { app, acc }, scenario) => {
  const res = await cashOut(app, acc.token, cashOutBody({ value: 10 }), scenario)
  t.equal(res.json().errorCode, code)
  t.same(await balanceOf(app, acc.accountId), { available: START, blocked: 0, invariantHolds: true }, 'nothing reserved')
  return res.statusCode
}

/** Async failure of a pay-out: accepted and reserved, then ERROR with the code and the money back. */
const failsAtSettlement = (code: string): Proof => async (t, { app, acc }, scenario) => {
  const res = await cashOut(app, acc.token, cashOutBody({ value: 10 }), scenario)
  t.equal(res.statusCode, 201)
  t.equal((await balanceOf(app, acc.accountId)).blocked, 10, 'reserved while pending')
  await advance(app, 1000)
  t.match(tx(app, res.json().transactionId), { status: 'ERROR', errorCode: code })
  t.same(await balanceOf(app, acc.accountId), { available: START, blocked: 0, invariantHolds: true }, 'released, not debited')
  return res.statusCode
}

/**
 * A cash-out over a real connection (a transport fault that never answers cannot be injected): the
 * app listens, and the promise settles with the status, or 0 with the socket's error code.
 */
async function cashOutOverSocket (app: FastifyInstance, acc: CreatedAccount, scenario: string): Promise<{ status: number, error: string | null }> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  const body = JSON.stringify(cashOutBody({ value: 10 }))
  return await new Promise(resolve => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/pix/cash-out', agent: false, headers: { ...bearer(acc.token), ...header(scenario), 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, res => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode!, error: null }))
    })
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: 0, error: err.code ?? 'ERROR' }))
    req.end(body)
  })
}

/** A transport fault that ends the connection without an answer: nothing performed. */
const noAnswer = (header: string, error: string): Proof => async (t, { app, acc }) => {
  const res = await cashOutOverSocket(app, acc, header)
  t.same(res, { status: 0, error }, 'the connection ended without an answer')
  t.same(await balanceOf(app, acc.accountId), { available: START, blocked: 0, invariantHolds: true }, 'nothing performed')
  // The journal records the request once the connection is gone.
  const unanswered = async (): Promise<boolean> => (await app.inject({ method: 'GET', url: `/__sandbox/requests?accountId=${acc.accountId}&path=/api/pix/cash-out` })).json().requests.some((e: { status: number }) => e.status === 0)
  for (let i = 0; i < 50 && !(await unanswered()); i++) await new Promise(resolve => setTimeout(resolve, 20))
  return 0
}

const qrCashOut = (app: FastifyInstance, acc: CreatedAccount, scenario: string) => app.inject({
  method: 'POST',
  url: '/api/pix/cash-out-qrcode',
  headers: { ...bearer(acc.token), ...header(scenario) },
  payload: { externalId: `qr-${scenario.toLowerCase().replace(/_/g, '')}`, value: 25, qrCode: buildBrCode({ key: JOAO.key, amountCents: 2500, merchantName: 'JOAO SOUZA', merchantCity: 'RECIFE' }) },
})

/** A QR Code pay-out refused with 422: recorded as ERROR, nothing reserved. */
const refusesQrCode = (code: string | null): Proof => async (t, { app, acc }, scenario) => {
  const res = await qrCashOut(app, acc, scenario)
  t.equal(res.statusCode, 422)
  if (code) t.equal(res.json().errorCode, code)
  t.same(await balanceOf(app, acc.accountId), { available: START, blocked: 0, invariantHolds: true }, 'nothing reserved')
  return res.statusCode
}

async function paidCashIn (app: FastifyInstance, acc: CreatedAccount, value: number): Promise<string> {
  const charge = await createCashIn(app, acc.token, cashInBody({ value }))
  t.equal((await payCode(app, charge.pixCode)).statusCode, 201)
  await advance(app, 1000)
  return charge.transactionId
}

/** A sample event through POST /__sandbox/webhooks/test with the scenario, to a live receiver; answers the delivery. */
async function sampleEvent (app: FastifyInstance, scenario: string) {
  const res = await app.inject({ method: 'POST', url: '/__sandbox/webhooks/test', headers: header(scenario), payload: { accountId: 1, eventType: 'cash_out', transactionId: `tx-${scenario}` } })
  return { status: res.statusCode, id: res.json().deliveries[0].id as string }
}
const delivery = async (app: FastifyInstance, id: string) => (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries/${id}` })).json()

/** A recurrence made with the scenario (POST /v2/rec), its confirmation request sent, and a day and a minute later its state. */
const recProof = (expected: Record<string, unknown>): Proof => async (t, { app, acc }, scenario) => {
  const rec = await app.inject({ method: 'POST', url: '/v2/rec', headers: { ...bearer(acc.token), ...header(scenario) }, payload: recBody() })
  t.equal(rec.statusCode, 201, rec.body)
  const { idRec } = rec.json()
  const solicitacao = { idRec, calendario: { dataExpiracaoSolicitacao: '2026-03-20T15:00:00Z' }, destinatario: { conta: '1', cpf: '45164632481', ispbParticipante: '91193552' } }
  t.equal((await app.inject({ method: 'POST', url: '/v2/solicrec', headers: bearer(acc.token), payload: solicitacao })).statusCode, 201)
  await advance(app, 86_400_000 + 60_000)
  t.match(recView(app, idRec), expected)
  return rec.statusCode
}

/**
 * A recurring charge of a recurrence approved by its payer (POST /v2/rec, the control plane's approve),
 * due on 2026-04-01, created with `scenario` unless it goes on the retry; the clock then past its
 * debit (08:00 in São Paulo). Answers the charge's txid and the status of its creation.
 */
async function cobrDebited (t: Test, { app, acc }: Ctx, scenario: string | null) {
  const rec = await app.inject({ method: 'POST', url: '/v2/rec', headers: bearer(acc.token), payload: recBody({ politicaRetentativa: 'PERMITE_3R_7D' }) })
  const { idRec } = rec.json()
  t.equal((await app.inject({ method: 'POST', url: `/__sandbox/recurrences/${idRec}/approve`, payload: {} })).statusCode, 200)
  const txid = 'cobr' + 'a'.repeat(26)
  const body = { idRec, calendario: { dataDeVencimento: '2026-04-01' }, valor: { original: '35.00' }, ajusteDiaUtil: true, recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' } }
  const created = await app.inject({ method: 'PUT', url: `/v2/cobr/${txid}`, headers: { ...bearer(acc.token), ...(scenario !== null ? header(scenario) : {}) }, payload: body })
  t.equal(created.statusCode, 201, created.body)
  // 18:00 in São Paulo on the due date: a debit without funds at 08:00 was tried again then.
  await advance(app, Date.parse('2026-04-01T21:00:00Z') - app.sandbox.clock.now())
  // A token of API Pix after the clock moved (the first one expired).
  const token = await oauthToken(app, acc)
  const cobr = async () => (await app.inject({ method: 'GET', url: `/v2/cobr/${txid}`, headers: bearer(token) })).json()
  return { txid, status: created.statusCode, cobr, token }
}

/** A recurring charge's debit bent by the scenario: the charge's attempt as expected, and nothing credited. */
const cobrProof = (expected: Record<string, unknown>): Proof => async (t, ctx, scenario) => {
  const { status, cobr } = await cobrDebited(t, ctx, scenario)
  t.match(await cobr(), expected)
  t.equal((await balanceOf(ctx.app, ctx.acc.accountId)).available, START, 'nothing credited')
  return status
}

const proofs: Record<string, Proof> = {
  INSUFFICIENT_FUNDS: refusesCashOut('PIX_INSUFFICIENT_BALANCE'),
  INVALID_KEY: refusesCashOut('PIX_INVALID_PIX_KEY'),
  TRANSACTION_LIMIT: refusesCashOut('PIX_TRANSACTION_LIMIT_EXCEEDED'),
  DAILY_LIMIT: refusesCashOut('PIX_DAILY_LIMIT_EXCEEDED'),
  NIGHT_LIMIT: refusesCashOut('PIX_NIGHT_LIMIT_EXCEEDED'),
  BLOCKED_ACCOUNT: failsAtSettlement('BLOCKED_ACCOUNT'),
  ACCOUNT_CLOSED: failsAtSettlement('ACCOUNT_CLOSED'),
  ORDER_REJECTED: failsAtSettlement('ORDER_REJECTED'),
  PAYMENT_EXPIRED: failsAtSettlement('PAYMENT_EXPIRED'),
  SETTLEMENT_TIMEOUT: failsAtSettlement('SETTLEMENT_TIMEOUT'),
  TAX_ID_MISMATCH: failsAtSettlement('TAX_ID_MISMATCH'),
  INVALID_TAX_ID: failsAtSettlement('INVALID_TAX_ID'),
  DOCUMENT_MISMATCH: failsAtSettlement('TAX_ID_MISMATCH'),
  SETTLEMENT_DELAY: async (t, { app, acc }) => {
    const res = await cashOut(app, acc.token, cashOutBody({ value: 10 }), 'SETTLEMENT_DELAY;ms=5000')
    await advance(app, 4999)
    t.equal((await balanceOf(app, acc.accountId)).blocked, 10, 'still reserved just before the delay')
    await advance(app, 1)
    t.same(await balanceOf(app, acc.accountId), { available: START - 10, blocked: 0, invariantHolds: true }, 'debited at the delay')
    return res.statusCode
  },
  PAYOUT_RETURNED: async (t, { app, acc }, scenario) => {
    t.equal(scenario, 'PAYOUT_RETURNED')
    const res = await cashOut(app, acc.token, cashOutBody({ value: 10 }), 'PAYOUT_RETURNED;parts=3')
    t.equal(res.statusCode, 201)
    await advance(app, 1000)
    t.match(tx(app, res.json().transactionId), { status: 'CONFIRMED' }, 'it settled')
    t.same(await balanceOf(app, acc.accountId), { available: START, blocked: 0, invariantHolds: true }, 'and all of it came back')
    const returns = app.sandbox.store.transactionsOf(acc.accountId).filter(r => r.kind === 'REFUND_RECEIVED')
    t.same(returns.map(r => r.amountCents), [333, 333, 334], 'in three devoluções, the last with the cents left over')
    const log = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${acc.accountId}&eventType=refund_out` })).json().deliveries
    t.equal(log.length, 3, 'a refund_out webhook each')
    return res.statusCode
  },
  QRCODE_ALREADY_PAID: refusesQrCode('QRCODE_ALREADY_PAID'),
  QRCODE_NOT_AVAILABLE: refusesQrCode('QRCODE_NOT_AVAILABLE'),
  PROVIDER_REJECTED: refusesQrCode(null),
  INTERNAL_ERROR: async (t, { app, acc }, scenario) => {
    // Both endpoints that know it: a QR Code pay-out really created behind its 500, and a 500 on the MED list.
    const res = await qrCashOut(app, acc, scenario)
    t.equal(res.statusCode, 500)
    t.same(await balanceOf(app, acc.accountId), { available: START - 25, blocked: 25, invariantHolds: true }, 'reserved although the answer was a 500')
    const med = await app.inject({ method: 'GET', url: '/api/med', headers: { ...bearer(acc.token), ...header(scenario) } })
    t.equal(med.statusCode, 500)
    return res.statusCode
  },
  KEY_NOT_FOUND: async (t, { app, acc }, scenario) => {
    const res = await app.inject({ method: 'POST', url: '/dict/pix', headers: { ...bearer(acc.token), ...header(scenario), 'x-idempotency-key': '3f2b8c1e-9a4d-4e7b-8c2a-000000000001' }, payload: { pixKey: '+5511987654321', payment: { currency: 'BRL', amount: 10 } } })
    t.equal(res.statusCode, 422)
    t.same(await balanceOf(app, acc.accountId), { available: START, blocked: 0, invariantHolds: true }, 'nothing reserved')
    return res.statusCode
  },
  PROVIDER_UNAVAILABLE: async (t, { app, acc }, scenario) => {
    const res = await app.inject({ method: 'POST', url: '/api/pix/cash-in', headers: { ...bearer(acc.token), ...header(scenario) }, payload: cashInBody({ value: 10 }) })
    t.equal(res.statusCode, 500)
    t.same(app.sandbox.store.transactionsOf(acc.accountId), [], 'no charge created')
    return res.statusCode
  },
  // Mercado Pago's alone: its PolicyAgent's 403 on a creation, nothing made.
  POLICY_AGENT_UNAUTHORIZED: async (t, { app, acc }, scenario) => {
    const token = (acc as unknown as { mercadoPago: { accessToken: string } }).mercadoPago.accessToken
    const res = await app.inject({ method: 'POST', url: '/v1/payments', headers: { ...bearer(token), ...header(scenario), 'x-idempotency-key': 'policy-1' }, payload: { transaction_amount: 10, payment_method_id: 'pix', payer: { email: 'p@example.com' } } })
    t.equal(res.statusCode, 403)
    t.equal(res.json().blocked_by, 'PolicyAgent')
    t.same(app.sandbox.store.transactionsOf(acc.accountId), [], 'no payment created')
    t.same(await balanceOf(app, acc.accountId), { available: START, blocked: 0, invariantHolds: true })
    return res.statusCode
  },
  PROVIDER_EXPIRATION_BELOW_MINIMUM: async (t, { app, acc }, scenario) => {
    const res = await app.inject({ method: 'POST', url: '/api/pix/cash-in', headers: { ...bearer(acc.token), ...header(scenario) }, payload: cashInBody({ value: 10 }) })
    t.equal(res.json().errorCode, 'PROVIDER_EXPIRATION_BELOW_MINIMUM')
    t.same(app.sandbox.store.transactionsOf(acc.accountId), [], 'no charge created')
    return res.statusCode
  },
  AUTO_PAY: async (t, { app, acc }) => {
    const charge = await createCashIn(app, acc.token, cashInBody({ value: 40 }), header('AUTO_PAY;ms=1000'))
    t.equal((await balanceOf(app, acc.accountId)).available, START, 'not paid yet')
    await advance(app, 2000)
    t.equal((await balanceOf(app, acc.accountId)).available, START + 40, 'credited by the simulated payer')
    t.equal(tx(app, charge.transactionId).status === 'PENDING', false)
    return 201
  },
  PAYMENT_ERROR: async (t, { app, acc }, scenario) => {
    const charge = await createCashIn(app, acc.token, cashInBody({ value: 40 }), header(scenario))
    await payCode(app, charge.pixCode)
    await advance(app, 1000)
    t.equal(tx(app, charge.transactionId).status, 'ERROR')
    t.equal((await balanceOf(app, acc.accountId)).available, START, 'nothing credited')
    return 201
  },
  REFUND_FAILED: async (t, { app, acc }, scenario) => {
    const paid = await paidCashIn(app, acc, 30)
    const res = await app.inject({ method: 'POST', url: `/api/pix/refund-in/${paid}`, headers: { ...bearer(acc.token), ...header(scenario) }, payload: { refundValue: 30 } })
    await advance(app, 1000)
    t.match(tx(app, res.json().transactionId), { status: 'ERROR', errorCode: 'REFUND_FAILED' })
    t.same(await balanceOf(app, acc.accountId), { available: START + 30, blocked: 0, invariantHolds: true }, 'the reservation released')
    return res.statusCode
  },
  REFUND_DELAY: async (t, { app, acc }) => {
    const paid = await paidCashIn(app, acc, 30)
    const res = await app.inject({ method: 'POST', url: `/api/pix/refund-in/${paid}`, headers: { ...bearer(acc.token), ...header('REFUND_DELAY;ms=10000') }, payload: { refundValue: 10 } })
    await advance(app, 9999)
    t.equal((await balanceOf(app, acc.accountId)).blocked, 10, 'still reserved')
    await advance(app, 1)
    t.same(await balanceOf(app, acc.accountId), { available: START + 20, blocked: 0, invariantHolds: true }, 'settled at the delay')
    return res.statusCode
  },
  LATENCY: async (t, { app, acc }) => {
    const started = Date.now()
    const res = await cashOut(app, acc.token, cashOutBody({ value: 10 }), 'LATENCY;ms=200')
    t.equal(res.statusCode, 201)
    // Less a millisecond: a Node timer may fire up to 1 ms early as Date.now() measures it.
    t.ok(Date.now() - started >= 200 - 1, 'answered after the latency')
    t.equal((await balanceOf(app, acc.accountId)).blocked, 10, 'the operation was performed')
    return res.statusCode
  },
  TIMEOUT: noAnswer('TIMEOUT;ms=200', 'ECONNRESET'),
  CONNECTION_RESET: noAnswer('CONNECTION_RESET', 'ECONNRESET'),
  SERVICE_UNAVAILABLE: async (t, { app, acc }, scenario) => {
    const res = await cashOut(app, acc.token, cashOutBody({ value: 10 }), scenario)
    t.equal(res.statusCode, 503)
    t.same(await balanceOf(app, acc.accountId), { available: START, blocked: 0, invariantHolds: true }, 'nothing performed')
    return res.statusCode
  },
  RATE_LIMITED: async (t, { app, acc }, scenario) => {
    const res = await app.inject({ method: 'GET', url: '/api/med', headers: { ...bearer(acc.token), ...header(scenario) } })
    t.equal(res.statusCode, 429)
    return res.statusCode
  },
  WEBHOOK_DROP: async (t, { app }, scenario) => {
    const sent = await sampleEvent(app, scenario)
    await app.sandbox.webhooks.idle()
    t.equal((await delivery(app, sent.id)).status, 'dropped')
    return sent.status
  },
  WEBHOOK_DUPLICATE: async (t, { app }, scenario) => {
    const sent = await sampleEvent(app, scenario)
    let d
    for (let i = 0; i < 50 && !(d = await delivery(app, sent.id)).attempts.some((a: any) => a.kind === 'duplicate' && a.statusCode === 200); i++) await app.sandbox.webhooks.idle()
    t.same(d.attempts.map((a: any) => a.kind), ['first', 'duplicate'])
    return sent.status
  },
  WEBHOOK_DELAY: async (t, { app }) => {
    const sent = await sampleEvent(app, 'WEBHOOK_DELAY;ms=5000')
    await app.sandbox.webhooks.idle()
    t.same((await delivery(app, sent.id)).attempts, [], 'not attempted before the delay')
    await advance(app, 5000)
    await app.sandbox.webhooks.idle()
    t.equal((await delivery(app, sent.id)).status, 'delivered')
    return sent.status
  },
  WEBHOOK_RECEIVER_TIMEOUT: async (t, { app }, scenario) => {
    const sent = await sampleEvent(app, scenario)
    await app.sandbox.webhooks.idle()
    const d = await delivery(app, sent.id)
    t.match(d.attempts[0], { kind: 'first', statusCode: null, error: /^TIMEOUT/ })
    t.equal(d.status, 'pending', 'to be retried')
    return sent.status
  },
  WEBHOOK_BAD_SIGNATURE: async (t, { app }, scenario) => {
    const sent = await sampleEvent(app, scenario)
    let d
    for (let i = 0; i < 50 && (d = await delivery(app, sent.id)).attempts.length === 0; i++) await app.sandbox.webhooks.idle()
    const signature = d.attempts[0].requestHeaders['x-sandbox-signature']
    t.not(signature, signDelivery(app.sandbox.config.webhookSecret, Number(d.attempts[0].requestHeaders['x-sandbox-timestamp']), JSON.stringify(d.body)), 'signed with another secret')
    t.match(signature, /^v1=[0-9a-f]{64}$/)
    return sent.status
  },
  WEBHOOK_OUT_OF_ORDER: async (t, { app }, scenario) => {
    const held = await sampleEvent(app, scenario)
    await app.sandbox.webhooks.idle()
    t.same((await delivery(app, held.id)).attempts, [], 'held for a later event of its transaction')
    const later = await app.inject({ method: 'POST', url: '/__sandbox/webhooks/test', payload: { accountId: 1, eventType: 'cash_out', transactionId: `tx-${scenario}` } })
    const laterId = later.json().deliveries[0].id
    for (let i = 0; i < 50 && (await delivery(app, held.id)).status !== 'delivered'; i++) await app.sandbox.webhooks.idle()
    const [first, second] = [await delivery(app, laterId), await delivery(app, held.id)]
    t.ok(Date.parse(first.attempts[0].at) <= Date.parse(second.attempts[0].at) && first.seq > second.seq, 'the later event went out first')
    return held.status
  },
  // Pix Automático: the recurrence's confirmation request, answered (or not) by the payer's PSP.
  REC_PAYER_PSP_REJECTS: recProof({ status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP14' } } }),
  REC_PAYER_PSP_SILENT: recProof({ status: 'CRIADA', solicitacao: [{ status: 'ENVIADA' }] }),
  REC_PAYER_PSP_CANCELS: recProof({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'PSP_PAGADOR', codigo: 'ACCL' } } }),
  // Its recurring charges: the debit on the charge's date, or the retry asked for after it failed.
  COBR_INSUFFICIENT_FUNDS: cobrProof({ status: 'ATIVA', tentativas: [{ status: 'EXPIRADA' }] }),
  COBR_DEBIT_REFUSED: cobrProof({ status: 'ATIVA', tentativas: [{ status: 'REJEITADA', rejeicao: { codigo: 'AC06' } }] }),
  COBR_NO_ANSWER: cobrProof({ status: 'ATIVA', tentativas: [{ status: 'AGENDADA' }] }),
  COBR_RETRY_REFUSED: async (t, ctx, scenario) => {
    const { app, acc } = ctx
    t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/payer-behaviours', payload: { accountId: acc.accountId, authorization: 'APPROVE', debit: 'REJEITADA_SALDO' } })).statusCode, 200)
    const { txid, token } = await cobrDebited(t, ctx, null)
    const retry = await app.inject({ method: 'POST', url: `/v2/cobr/${txid}/retentativa/2026-04-03`, headers: { ...bearer(token), ...header(scenario) } })
    t.match(retry.json(), { status: 'ATIVA', tentativas: [{ status: 'EXPIRADA' }, { tipo: 'NTAG', status: 'REJEITADA', rejeicao: { codigo: 'AB10' } }] })
    t.equal((await balanceOf(app, acc.accountId)).available, START, 'nothing credited')
    return retry.statusCode
  },
}

const names: readonly string[] = [...new Set(catalogue.map(s => s.name))]

t.test('every scenario of the catalogue has a proof here', async t => {
  t.same(names.filter(n => !proofs[n]), [], 'scenarios without a proof')
  t.same(Object.keys(proofs).filter(n => !names.includes(n)), [], 'proofs of scenarios the catalogue no longer has')
})

for (const name of names) {
  t.test(`${name}: applied (the journal says so) and its effect is there`, async t => {
    const app = await buildTestApp(t)
    const rx = await startReceiver()
    t.teardown(() => rx.close())
    await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: 1, eventType: 'cash_out', url: rx.url } })
    const acc = await newAccount(app, { balance: START, fee: 0, limits: { perTransaction: 1e6, daily: 1e7, nightly: 1e6 } })
    const status = await proofs[name](t, { app, acc }, name)
    const res = await app.inject({ method: 'GET', url: `/__sandbox/requests?scenario=${name}` })
    const [entry] = res.json().requests.filter((e: any) => e.status === status)
    t.ok(entry, `the request that carried ${name} is in the journal with it`)
    t.ok(entry.scenarios.includes(name))
    t.equal(entry.response.headers['x-sandbox-scenario-applied'].split(',')[0].split(';')[0], name)
    t.ok(entry.accountId === acc.accountId || entry.accountId === 1, 'attributed to the account it ran for')
  })
}
