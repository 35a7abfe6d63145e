import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { advance, bearer, buildTestApp, newAccount, tokenFor } from '../helpers/app.js'
import { cashOut, cashOutBody, JOAO } from '../helpers/payouts.js'
import { aTxid, receiveIncoming } from '../helpers/payins.js'
import { buildBrCode } from '../../server/domain/brcode.js'
import { checks } from '../helpers/report.js'
import { oauthToken } from '../helpers/api-pix.js'
import { startReceiver } from '../helpers/receiver.js'
import { recBody } from '../helpers/rec.js'
import { advanceTo, cobrApp, cobrBody } from '../helpers/recurrences.js'

/**
 * GET /__sandbox/report and POST /__sandbox/report/probe through app.inject: what the report records
 * of each request (the facts its checks grade), its shape, and its errors. The checks themselves are
 * graded in test/unit/report-checks.test.ts; whole integrations over HTTP in test/flows/report.test.ts.
 */
const report = async (app: FastifyInstance, accountId: number) => {
  const res = await app.inject({ method: 'GET', url: `/__sandbox/report?accountId=${accountId}` })
  if (res.statusCode !== 200) throw new Error(`report failed: ${res.statusCode} ${res.body}`)
  return res.json()
}
const statusOf = (r: { checks: Array<{ id: string, status: string }> }, id: string) => r.checks.find(c => c.id === id)?.status

t.test('a fresh account: every check of the catalogue, each not exercised but requests-valid, those of API Pix or Mercado Pago alone not applicable, naming its section', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const r = await report(app, acc.accountId)
  t.equal(r.accountId, acc.accountId)
  t.equal(r.generatedAt, '2026-03-10T15:00:00.000Z', 'sandbox time')
  t.equal(r.verdict, 'incomplete')
  const apiPixOnly = checks.filter(c => !c.dialects.includes('gateway')).length
  t.ok(apiPixOnly > 0)
  t.same(r.counts, { passed: 1, failed: 0, not_exercised: checks.length - 1 - apiPixOnly, not_applicable: apiPixOnly })
  t.same(r.checks.map((c: { id: string }) => c.id), checks.map(c => c.id))
  for (const c of r.checks) {
    const gateway = c.dialects.includes('gateway')
    t.equal(c.status, c.id === 'requests-valid' ? 'passed' : gateway ? 'not_exercised' : 'not_applicable', `${c.id}: ${c.summary}`)
    const page = gateway ? 'gateway' : c.dialects.includes('mercado-pago') ? 'mercado-pago' : 'api-pix'
    t.match(c.section, gateway ? /^gateway \d/ : new RegExp(`^${page} `), `${c.id} cites a section`)
    t.match(c.docs, gateway ? /^docs\/gateway\.md#\d/ : new RegExp(`^docs/${page}\\.md#[a-z]`), `${c.id} links to it`)
    t.same(c.evidence, [])
  }
  t.match(r.read, { requests: 1, transactions: 0 }, 'the token request of newAccount')
})

t.test('an unknown account is a 404; a missing or bad accountId a 400', async t => {
  const app = await buildTestApp(t)
  const unknown = await app.inject({ method: 'GET', url: '/__sandbox/report?accountId=999' })
  t.equal(unknown.statusCode, 404)
  t.equal(unknown.json().code, 'ACCOUNT_NOT_FOUND')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/report' })).statusCode, 400)
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/report?accountId=x' })).statusCode, 400)
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/report/probe', payload: { accountId: 999 } })).statusCode, 404)
})

t.test('the report reads error codes the simple shape does not show, an expired token\'s account, and control-plane queries', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 100 })
  // A devolução beyond the original: the simple shape has no code, the report still knows why.
  const pix = await receiveIncoming(app, acc.accountId, 10)
  const over = await app.inject({ method: 'PUT', url: `/pix/${pix.endToEndId}/devolucao/d1`, headers: bearer(acc.token), payload: { valor: '10.01' } })
  t.equal(over.statusCode, 400)
  t.notOk('code' in over.json(), 'the simple shape is unchanged')
  let r = await report(app, acc.accountId)
  t.equal(statusOf(r, 'refunds-within-amount'), 'failed')
  t.same(r.checks.find((c: { id: string }) => c.id === 'refunds-within-amount').evidence[0].requestIds, [over.headers['x-request-id']])

  // A token past its 1800 s: the 401 carries no account, the report finds it from the token.
  await advance(app, 1_800_000)
  const expired = await app.inject({ method: 'GET', url: '/balance', headers: bearer(acc.token) })
  t.equal(expired.statusCode, 401)
  r = await report(app, acc.accountId)
  t.equal(statusOf(r, 'token-renewed'), 'failed', 'no new token after the 401 (yet)')
  await tokenFor(app, acc)
  r = await report(app, acc.accountId)
  t.equal(statusOf(r, 'token-renewed'), 'passed', 'a new token followed the 401')
  // A forged token is not an expired one: it names no account.
  const forged = await app.inject({ method: 'GET', url: '/balance', headers: bearer(acc.token.slice(0, -2) + 'xx') })
  t.equal(forged.statusCode, 401)
  t.equal((await report(app, acc.accountId)).read.requests, r.read.requests, 'nothing recorded for the account')

  // A 500 on a pay-out, then a control-plane query of the transaction: resolved.
  const token = await tokenFor(app, acc)
  const qrCode = buildBrCode({ key: JOAO.key, amountCents: 500, merchantName: 'JOAO SOUZA', merchantCity: 'RECIFE' })
  const lost = await app.inject({ method: 'POST', url: '/api/pix/cash-out-qrcode', headers: { ...bearer(token), 'x-sandbox-scenario': 'INTERNAL_ERROR' }, payload: { value: 5, qrCode, externalId: 'qr-500' } })
  t.equal(lost.statusCode, 500)
  r = await report(app, acc.accountId)
  t.equal(statusOf(r, 'indeterminate-payout-resolved'), 'failed', 'left unknown so far')
  const [tx] = (await app.inject({ method: 'GET', url: `/__sandbox/transactions?accountId=${acc.accountId}&kind=CASH_OUT_QRCODE` })).json().transactions
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/transactions/${tx.id}` })).statusCode, 200)
  r = await report(app, acc.accountId)
  t.equal(statusOf(r, 'indeterminate-payout-resolved'), 'passed')
})

t.test('a tool\'s token (POST /__sandbox/accounts/:id/token, the CLI\'s) works and is not graded: not a token fetched early, not an expired one left unrenewed', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  for (let i = 0; i < 2; i++) t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(acc.token) })).statusCode, 200)
  const issued = await app.inject({ method: 'POST', url: `/__sandbox/accounts/${acc.accountId}/token` })
  t.equal(issued.statusCode, 201)
  t.match(issued.json(), { access_token: String, token_type: 'Bearer', expires_in: 1800 })
  const tool = issued.json().access_token
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(tool) })).statusCode, 200, 'it is the account\'s')
  t.equal(statusOf(await report(app, acc.accountId), 'token-reused'), 'passed', 'the integration\'s one token is all the check counts')
  // Expired, its 401 is the developer's to renew, not the integration's.
  await advance(app, 1_800_000)
  t.equal((await app.inject({ method: 'GET', url: '/balance', headers: bearer(tool) })).statusCode, 401)
  t.equal(statusOf(await report(app, acc.accountId), 'token-renewed'), 'not_exercised')
  const missing = await app.inject({ method: 'POST', url: '/__sandbox/accounts/999/token' })
  t.equal(missing.statusCode, 404)
})

t.test('a refused cash-out retried unchanged fails refusal-not-retried; the scenario names are recorded', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 100 })
  const body = cashOutBody({ value: 10 })
  const first = await cashOut(app, acc.token, body, 'INSUFFICIENT_FUNDS')
  t.equal(first.json().errorCode, 'PIX_INSUFFICIENT_BALANCE')
  t.equal(statusOf(await report(app, acc.accountId), 'refusal-not-retried'), 'passed', 'refused once, not retried')
  const again = await cashOut(app, acc.token, { ...body, externalId: 'other' }, 'INSUFFICIENT_FUNDS')
  const r = await report(app, acc.accountId)
  const check = r.checks.find((c: { id: string }) => c.id === 'refusal-not-retried')
  t.equal(check.status, 'failed')
  t.same(check.evidence[0].requestIds, [first.headers['x-request-id'], again.headers['x-request-id']])
  t.equal(r.verdict, 'failed')
})

t.test('the report reads the request journal: clearing an account\'s journal starts its report over; another account\'s report is its own', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 100 })
  const b = await newAccount(app, { balance: 100 })
  await cashOut(app, a.token, cashOutBody({ value: 10 }), 'INSUFFICIENT_FUNDS')
  t.equal(statusOf(await report(app, a.accountId), 'refusal-not-retried'), 'passed')
  t.equal(statusOf(await report(app, b.accountId), 'refusal-not-retried'), 'not_exercised')
  // Control-plane calls in the account's journal (its creation, this report) are not graded.
  t.equal((await report(app, a.accountId)).read.requests, 2, 'the token request and the cash-out')
  t.equal((await app.inject({ method: 'DELETE', url: `/__sandbox/requests?accountId=${a.accountId}` })).statusCode, 200)
  t.equal((await report(app, a.accountId)).read.requests, 0)
  t.equal((await report(app, b.accountId)).read.requests, 1, 'b\'s token request stays')
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset' })).statusCode, 200)
  const fresh = await newAccount(app)
  t.equal((await report(app, fresh.accountId)).read.requests, 1, 'a full reset forgets every account: only the new token request')
})

t.test('the probe: 409 without a receiver; with one, a badly signed sample sent once and graded', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const none = await app.inject({ method: 'POST', url: '/__sandbox/report/probe', payload: { accountId: acc.accountId } })
  t.equal(none.statusCode, 409)
  t.equal(none.json().code, 'NO_RECEIVER')
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  receiver.script([401])
  await app.inject({ method: 'POST', url: '/__sandbox/webhooks', payload: { accountId: acc.accountId, eventType: 'cash_in', url: receiver.url } })
  const wrongType = await app.inject({ method: 'POST', url: '/__sandbox/report/probe', payload: { accountId: acc.accountId, eventType: 'cash_out' } })
  t.equal(wrongType.statusCode, 409, 'no receiver for that event type')
  const probe = await app.inject({ method: 'POST', url: '/__sandbox/report/probe', payload: { accountId: acc.accountId } })
  t.equal(probe.statusCode, 202)
  t.match(probe.json().deliveries, [{ eventType: 'cash_in', scenarios: ['WEBHOOK_BAD_SIGNATURE'] }])
  const got = await receiver.next()
  t.match(got.headers['x-sandbox-signature'], /^v1=[0-9a-f]{64}$/, 'well formed, but made with another secret')
  await app.sandbox.webhooks.idle()
  await advance(app, 3_600_000)
  await app.sandbox.webhooks.idle()
  t.equal(receiver.requests.length, 1, 'a refused probe is not retried')
  const r = await report(app, acc.accountId)
  t.equal(statusOf(r, 'webhook-signature-verified'), 'passed')
  t.equal(statusOf(r, 'webhooks-acknowledged'), 'not_exercised', 'the probe is not a webhook the receiver owes a 2xx')
})

t.test('API Pix through the report: its token and requests are the dialect\'s under any base path; a 403 sent again, violacoes and a list not paged through are evidence', async t => {
  const app = await buildTestApp(t, { apiPixBasePath: '/api/v2' })
  // Through the control plane alone: an integration of API Pix never asks the gateway for a token.
  const acc = (await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: {} })).json()
  const narrow = await oauthToken(app, acc, 'cob.read')
  const cob = { calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: 'loja@example.com' }
  const put = (txid: string, token: string, payload: Record<string, unknown> = cob) => app.inject({ method: 'PUT', url: `/api/v2/cob/${txid}`, headers: bearer(token), payload })
  const denied = [await put('t'.repeat(26), narrow), await put('t'.repeat(26), narrow)]
  t.same(denied.map(r => r.statusCode), [403, 403])
  const wide = await oauthToken(app, acc)
  for (const txid of ['a', 'b', 'c']) t.equal((await put(txid.repeat(26), wide)).statusCode, 201)
  const invalid = await put('d'.repeat(26), wide, { ...cob, valor: { original: 10 } })
  t.equal(invalid.statusCode, 400)
  const list = await app.inject({ method: 'GET', url: '/api/v2/cob?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z&paginacao.itensPorPagina=2', headers: bearer(wide) })
  t.equal(list.json().parametros.paginacao.quantidadeDePaginas, 2)

  let r = await report(app, acc.accountId)
  t.equal(statusOf(r, 'requests-valid'), 'not_applicable', 'not one request to the gateway: under /api/v2 is API Pix')
  t.equal(statusOf(r, 'refusal-not-retried'), 'not_applicable')
  t.equal(statusOf(r, 'token-reused'), 'passed', 'a narrow token and a wide one: another scope is not a renewal')
  t.equal(statusOf(r, 'charge-external-id-unique'), 'passed')
  const byId = Object.fromEntries(r.checks.map((c: { id: string }) => [c.id, c]))
  t.match(byId['scope-refusal-not-retried'], { status: 'failed', evidence: [{ requestIds: denied.map(d => d.headers['x-request-id']) }] })
  t.match(byId['api-pix-requests-valid'], {
    status: 'failed',
    evidence: [{ note: 'API Pix PUT /cob/:txid refused cob.valor.original: valor.original deve ser do tipo texto', requestIds: [invalid.headers['x-request-id']] }],
  })
  t.match(byId['lists-paged-through'], { status: 'failed', evidence: [{ note: /page 0 of 2/, requestIds: [list.headers['x-request-id']] }] })
  t.equal(statusOf(r, 'cob-creation-resolved'), 'not_exercised')

  const next = await app.inject({ method: 'GET', url: '/api/v2/cob?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z&paginacao.itensPorPagina=2&paginacao.paginaAtual=1', headers: bearer(wide) })
  t.equal(next.statusCode, 200)
  r = await report(app, acc.accountId)
  t.equal(statusOf(r, 'lists-paged-through'), 'passed', 'the next page read')
})

t.test('a cob creation whose answer was lost after it was made: sent again with its txid, it passes; created again by POST /cob, it fails', async t => {
  const app = await buildTestApp(t)
  const acc = (await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: {} })).json()
  const token = await oauthToken(app, acc)
  const cob = { calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: 'loja@example.com' }
  // The connection is cut: app.inject rejects, as a client's request fails.
  const reset = (url: string) => app.inject({ method: url.endsWith('/cob') ? 'POST' : 'PUT', url, headers: { ...bearer(token), 'x-sandbox-scenario': 'CONNECTION_RESET;after=commit' }, payload: cob })
  await t.rejects(reset(`/v2/cob/${'a'.repeat(26)}`), 'no answer')
  const again = await app.inject({ method: 'PUT', url: `/v2/cob/${'a'.repeat(26)}`, headers: bearer(token), payload: cob })
  t.equal(again.statusCode, 400, 'its txid is in use: it was made')
  let r = await report(app, acc.accountId)
  t.equal(statusOf(r, 'cob-creation-resolved'), 'passed')
  t.equal(statusOf(r, 'charge-external-id-unique'), 'passed', 'the txid in use answers a retry, not a reuse')
  t.equal(statusOf(r, 'api-pix-requests-valid'), 'passed', 'a txid in use is not invalid data')

  await t.rejects(reset('/v2/cob'))
  const twice = await app.inject({ method: 'POST', url: '/v2/cob', headers: bearer(token), payload: cob })
  t.equal(twice.statusCode, 201)
  r = await report(app, acc.accountId)
  t.equal(statusOf(r, 'cob-creation-resolved'), 'failed')
  const charges = (await app.inject({ method: 'GET', url: `/__sandbox/transactions?accountId=${acc.accountId}&kind=COB` })).json().transactions
  t.equal(charges.length, 3, 'two charges for the one sale sent by POST /cob')
})

/** A check of the report, by id. */
const checkOf = (r: { checks: Array<{ id: string, status: string, summary: string, evidence: Array<{ note: string, requestIds: string[] }> }> }, id: string) => r.checks.find(c => c.id === id)

t.test('Pix Automático: a recurrence rejected, cancelled or expired and charged afterwards fails rejected-rec-not-charged or expired-rec-not-charged; one charged before its end, or not at all, passes', async t => {
  const { app, acc, call, idRec, body, cancel } = await cobrApp(t)
  let r = await report(app, acc.accountId)
  t.match(checkOf(r, 'expired-rec-not-charged'), { status: 'not_exercised', summary: /no recurrence was expired; to exercise it, .*REC_PAYER_PSP_SILENT/ })
  t.equal(statusOf(r, 'rejected-rec-not-charged'), 'not_exercised')

  // As the checks' "to exercise it" says: the payer's PSP rejects, or never answers, the confirmation request.
  const rec = async (scenario: string) => {
    const res = await call('POST', '/v2/rec', recBody(), { 'x-sandbox-scenario': scenario })
    t.equal(res.statusCode, 201, res.body)
    const idRec = res.json().idRec as string
    const solic = await call('POST', '/v2/solicrec', { idRec, calendario: { dataExpiracaoSolicitacao: '2026-03-12T15:00:00Z' }, destinatario: { agencia: '2569', conta: '550689', cpf: '45164632481', ispbParticipante: '91193552' } })
    t.equal(solic.statusCode, 201, solic.body)
    return idRec
  }
  const rejected = await rec('REC_PAYER_PSP_REJECTS')
  const silent = await rec('REC_PAYER_PSP_SILENT')
  await advance(app, 3000)
  // A charge made while its recurrence was approved, then the recurrence cancelled in the same instant (a frozen clock).
  t.equal((await call('PUT', `/v2/cobr/${aTxid(1)}`, body())).statusCode, 201)
  await cancel(idRec)
  r = await report(app, acc.accountId)
  t.match(checkOf(r, 'rejected-rec-not-charged'), { status: 'passed', summary: '2 recurrences rejected or cancelled, none charged afterwards' })
  t.equal(statusOf(r, 'expired-rec-not-charged'), 'not_exercised', 'its request still waits')
  await advanceTo(app, '2026-03-13T03:00:00Z')
  t.equal((await call('GET', `/v2/rec/${silent}`)).json().status, 'EXPIRADA')
  r = await report(app, acc.accountId)
  t.match(checkOf(r, 'expired-rec-not-charged'), { status: 'passed', summary: '1 recurrence expired, none charged afterwards' })

  // Billed all the same: the sandbox refuses each, and the report holds having sent them against the integration.
  const monthly = (idRec: string) => cobrBody(idRec, { calendario: { dataDeVencimento: '2026-04-01' }, valor: { original: '35.00' } })
  const afterRejection = await call('PUT', `/v2/cobr/${aTxid(2)}`, monthly(rejected))
  const afterCancel = await call('POST', '/v2/cobr', body({ calendario: { dataDeVencimento: '2026-04-20' } }))
  const afterExpiry = await call('POST', '/v2/cobr', monthly(silent))
  t.same([afterRejection, afterCancel, afterExpiry].map(res => res.statusCode), [400, 400, 400])
  r = await report(app, acc.accountId)
  t.match(checkOf(r, 'rejected-rec-not-charged'), {
    status: 'failed',
    summary: '2 recurrences of 2 rejected or cancelled charged afterwards',
    evidence: [
      { note: new RegExp(`^recurrence ${idRec} CANCELADA at 2026-03-10T15:00:03.000Z; then POST /cobr answered 400`), requestIds: [afterCancel.headers['x-request-id']] },
      { note: new RegExp(`^recurrence ${rejected} REJEITADA at 2026-03-10T15:00:03.000Z; then PUT /cobr/:txid with txid ${aTxid(2)} answered 400`), requestIds: [afterRejection.headers['x-request-id']] },
    ],
  })
  t.match(checkOf(r, 'expired-rec-not-charged'), { status: 'failed', evidence: [{ note: new RegExp(`^recurrence ${silent} EXPIRADA`), requestIds: [afterExpiry.headers['x-request-id']] }] })
  t.equal(r.verdict, 'failed')
})

t.test('Pix Automático: a failed debit retried within the window passes cobr-retry-requested; one left to expire fails it; a retry API Pix refuses fails cobr-retry-allowed', async t => {
  const { app, acc, call, body } = await cobrApp(t)
  const nextDue = async () => {
    const res = await app.inject({ method: 'POST', url: '/__sandbox/clock/next-due', payload: { accountId: acc.accountId } })
    t.equal(res.statusCode, 200, res.body)
    return res.json().debit
  }
  let r = await report(app, acc.accountId)
  t.equal(statusOf(r, 'cobr-retry-requested'), 'not_exercised')
  t.equal(statusOf(r, 'cobr-retry-allowed'), 'not_exercised')

  // As "to exercise it" says: the debit fails for want of funds on a recurrence that allows retries.
  const first = aTxid(1)
  t.equal((await call('PUT', `/v2/cobr/${first}`, body(), { 'x-sandbox-scenario': 'COBR_INSUFFICIENT_FUNDS' })).statusCode, 201)
  t.match(await nextDue(), { txid: first, status: 'ATIVA' })
  t.match(await nextDue(), { txid: first, status: 'ATIVA' }, 'its evening attempt, without funds either')
  r = await report(app, acc.accountId)
  t.match(checkOf(r, 'cobr-retry-requested'), { status: 'not_exercised', summary: /1 charge still waiting for a retry, until 2026-03-27/ })
  t.match(checkOf(r, 'cobr-retry-allowed'), { status: 'passed', summary: '1 failed debit, 0 retry requests, none refused' })
  t.equal((await call('POST', `/v2/cobr/${first}/retentativa/2026-03-23`)).statusCode, 201)
  r = await report(app, acc.accountId)
  t.match(checkOf(r, 'cobr-retry-requested'), { status: 'passed', summary: '1 failed debit with a retry left, each retried' })
  t.equal(statusOf(r, 'cobr-retry-allowed'), 'passed')
  t.match(await nextDue(), { txid: first, status: 'CONCLUIDA' }, 'paid on the retry')

  // The next cycle's debit fails too; the integration asks for a day past the 7 and then gives up.
  const second = aTxid(2)
  t.equal((await call('PUT', `/v2/cobr/${second}`, body({ calendario: { dataDeVencimento: '2026-04-20' } }), { 'x-sandbox-scenario': 'COBR_INSUFFICIENT_FUNDS' })).statusCode, 201)
  t.match(await nextDue(), { txid: second, status: 'ATIVA' })
  t.match(await nextDue(), { txid: second, status: 'ATIVA' }, 'its evening attempt')
  const late = await call('POST', `/v2/cobr/${second}/retentativa/2026-04-30`)
  t.equal(late.statusCode, 400)
  r = await report(app, acc.accountId)
  t.match(checkOf(r, 'cobr-retry-allowed'), {
    status: 'failed',
    summary: '1 retry request of 2 refused',
    evidence: [{ note: new RegExp(`^retry of cobr ${second} refused: data: O parâmetro data não está entre`), requestIds: [late.headers['x-request-id']] }],
  })
  await advanceTo(app, '2026-04-28T03:00:00Z')
  t.equal((await call('GET', `/v2/cobr/${second}`)).json().status, 'EXPIRADA')
  r = await report(app, acc.accountId)
  t.match(checkOf(r, 'cobr-retry-requested'), {
    status: 'failed',
    summary: '1 failed debit of 2 with a retry left not retried',
    evidence: [{ note: new RegExp(`^cobr ${second} .*attempt 1 EXPIRADA on 2026-04-20; a retry could be asked for until 2026-04-27, none was, and the charge EXPIRADA`), requestIds: [] }],
  })
})
