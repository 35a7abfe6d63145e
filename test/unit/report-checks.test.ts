import t from 'tap'
import { checksMarkdown, MAX_EVIDENCE, type CheckResult } from '../../server/report/checks.js'
import { checks, graded, TITLES } from '../helpers/report.js'
import { canonical, gradedAs, paramsOf, payoutTarget, requestFact, requestFields, type IntegrationFacts, type RequestFact } from '../../server/report/facts.js'
import type { JournalEntry } from '../../server/journal/journal.js'
import type { Delivery, DeliveryAttempt, Transaction } from '../../server/store/state.js'

/**
 * Every check of the integration report in its three states (passed, failed with its evidence, not
 * exercised), graded on facts written by hand: what an integration did, as the recorder or a journal
 * would hand it over. Whole integrations over HTTP are in test/flows/report.test.ts.
 */
const T = Date.parse('2026-03-10T15:00:00.000Z')
const MIN = 60_000
const ACCOUNT = 7

let n = 0
function req (fields: Partial<RequestFact>): RequestFact {
  n++
  return {
    id: `req-${n}`,
    at: T,
    method: 'POST',
    family: fields.route?.startsWith('/__sandbox') ? 'control' : 'gateway',
    route: '/balance',
    status: 200,
    accountId: ACCOUNT,
    tokenId: null,
    scenarios: [],
    errorCode: null,
    externalId: null,
    idempotencyKey: null,
    amountCents: null,
    target: null,
    expiredToken: false,
    scope: null,
    violations: [],
    sent: null,
    listPage: null,
    idRec: null,
    ...fields,
  }
}
/** A request of API Pix: its route without the base path. */
const apiPix = (fields: Partial<RequestFact>): RequestFact => req({ family: 'api-pix', ...fields })
const token = (at: number): RequestFact => req({ route: '/api/auth/token', status: 201, at })
const call = (at: number, fields: Partial<RequestFact> = {}): RequestFact => req({ method: 'GET', route: '/balance', at, ...fields })

const attempt = (statusCode: number | null, fields: Partial<DeliveryAttempt> = {}): DeliveryAttempt => ({
  at: new Date(T).toISOString(), kind: 'first', statusCode, latencyMs: 3, error: statusCode !== null && statusCode >= 200 && statusCode < 300 ? null : statusCode === null ? 'TIMEOUT' : `HTTP ${statusCode}`, ...fields,
})
function delivery (attempts: DeliveryAttempt[], fields: Partial<Delivery> = {}): Delivery {
  n++
  return {
    id: `dlv-${n}`,
    seq: n,
    accountId: ACCOUNT,
    eventType: 'cash_out',
    eventId: `ev-${n}`,
    transactionId: null,
    webhookId: 1,
    url: 'http://127.0.0.1:9/hook',
    status: 'delivered',
    requestHeaders: {},
    body: {},
    attempts,
    nextAttemptAt: null,
    scenarios: [],
    createdAt: new Date(T).toISOString(),
    updatedAt: new Date(T).toISOString(),
    ...fields,
  } as Delivery
}
function tx (fields: Omit<Partial<Transaction>, 'data'> & { data?: Record<string, unknown> }): Transaction {
  n++
  return {
    id: `tx-${n}`,
    seq: n,
    accountId: ACCOUNT,
    kind: 'CASH_OUT',
    direction: 'OUT',
    status: 'CONFIRMED',
    amountCents: 1000,
    feeCents: 0,
    pixKey: 'joao@example.com',
    data: {},
    createdAt: new Date(T).toISOString(),
    updatedAt: new Date(T).toISOString(),
    history: [{ status: 'PENDING', at: new Date(T).toISOString() }],
    ...fields,
  } as Transaction
}

const facts = (f: Partial<IntegrationFacts>): IntegrationFacts => ({ accountId: ACCOUNT, requests: [], deliveries: [], transactions: [], recurrences: [], cobrs: [], ...f })
function grade (id: string, f: Partial<IntegrationFacts>): CheckResult {
  const check = checks.find(c => c.id === id)
  if (!check) throw new Error(`no check ${id}`)
  return check.evaluate(facts(f))
}

t.test('the catalogue: unique ids, a cited section that exists in docs/gateway.md or docs/api-pix.md, the dialects it grades, words for each state', async t => {
  const { readFileSync } = await import('node:fs')
  const anchorsOf = (page: string) => new Set([...readFileSync(new URL(`../../docs/${page}`, import.meta.url), 'utf8').matchAll(/^#+ (.+)$/gm)]
    .map(m => '#' + m[1].toLowerCase().replace(/[^\p{L}\p{N} -]/gu, '').replace(/ /g, '-')))
  // Each page a check cites (a dialect's page of docs/), read once.
  const anchors = new Map(checks.map(c => c.page).filter((p, i, all) => all.indexOf(p) === i).map(p => [p, anchorsOf(p)]))
  t.equal(new Set(checks.map(c => c.id)).size, checks.length)
  for (const c of checks) {
    t.match(c.id, /^[a-z]+(-[a-z]+)*$/)
    t.match(c.section, c.page === 'gateway.md' ? /^gateway \d/ : c.page === 'mercado-pago.md' ? /^mercado-pago [A-Za-z]/ : /^api-pix [A-Za-z]/, `${c.id}: cites its page's section`)
    t.ok(anchors.get(c.page)?.has(c.anchor), `${c.id}: ${c.anchor} is a heading of docs/${c.page}`)
    t.ok(c.dialects.length > 0, `${c.id}: grades a dialect`)
    for (const words of [c.title, c.passes, c.fails, c.exercise]) t.ok(words.length > 15, `${c.id}: described`)
  }
  t.ok(checks.some(c => c.dialects.length === 1 && c.dialects[0] === 'api-pix'), 'checks of API Pix alone')
  t.equal(checksMarkdown(checks, TITLES).split('\n').length, checks.length + 2, 'one row per check')
})

t.test('token-reused', async t => {
  t.match(grade('token-reused', { requests: [token(T), call(T)] }), { status: 'not_exercised', summary: /1 token and 1 authenticated request/ })
  t.match(grade('token-reused', { requests: [call(T), call(T)] }), { status: 'not_exercised' }, 'no token seen')
  t.match(grade('token-reused', { requests: [token(T), call(T), call(T + MIN), token(T + 28 * MIN), call(T + 29 * MIN)] }),
    { status: 'passed', summary: '2 tokens for 3 authenticated requests' }, 'renewed with 2 minutes left')
  const early = token(T + MIN)
  const perRequest = grade('token-reused', { requests: [token(T), call(T), early, call(T + MIN)] })
  t.match(perRequest, { status: 'failed', summary: /1 token of 2 requested while the previous one had more than 5 minutes left/ })
  t.same(perRequest.evidence.map(e => e.requestIds), [[early.id]])
  t.match(perRequest.evidence[0].note, /60 s after the previous one/)
  const refused = call(T, { status: 401 })
  t.match(grade('token-reused', { requests: [token(T), call(T), refused] }), { status: 'not_exercised' }, 'a 401 is not an authenticated request')
})

t.test('token-renewed', async t => {
  t.match(grade('token-renewed', { requests: [token(T), call(T + 10 * MIN)] }), { status: 'not_exercised', summary: /advance the sandbox clock/ })
  t.match(grade('token-renewed', { requests: [token(T), call(T), token(T + 29 * MIN), call(T + 31 * MIN)] }), { status: 'passed', summary: /renewed before expiry/ })
  const expired = call(T + 31 * MIN, { status: 401, expiredToken: true })
  t.match(grade('token-renewed', { requests: [token(T), expired, token(T + 31 * MIN), call(T + 31 * MIN)] }),
    { status: 'passed', summary: 'a new token followed each of 1 401 for an expired token' })
  const gaveUp = grade('token-renewed', { requests: [token(T), expired] })
  t.match(gaveUp, { status: 'failed', evidence: [{ note: /no new token was requested/, requestIds: [expired.id] }] })
  const again = call(T + 32 * MIN, { status: 401, expiredToken: true })
  const persisted = grade('token-renewed', { requests: [token(T), expired, again, token(T + 33 * MIN)] })
  t.match(persisted, { status: 'failed', evidence: [{ note: /sent again/, requestIds: [expired.id, again.id] }] })
})

t.test('refusal-not-retried', async t => {
  const payout = (fields: Partial<RequestFact>) => req({ route: '/api/pix/cash-out', status: 400, errorCode: 'PIX_INSUFFICIENT_BALANCE', target: 'joao@example.com', amountCents: 1000, ...fields })
  t.match(grade('refusal-not-retried', { requests: [payout({ status: 201, errorCode: null })] }), { status: 'not_exercised', summary: /INSUFFICIENT_FUNDS/ })
  const first = payout({ externalId: 'a' })
  t.match(grade('refusal-not-retried', { requests: [first, payout({ externalId: 'b', amountCents: 500 }), payout({ externalId: 'c', status: 201, errorCode: null })] }),
    { status: 'passed', summary: '2 refused pay-outs, none retried unchanged' }, 'a smaller amount, then a success: not the same order refused twice')
  t.match(grade('refusal-not-retried', { requests: [payout({ target: null, amountCents: null }), payout({ target: null, amountCents: null })] }),
    { status: 'passed' }, 'destination and amount unknown: not called the same order')
  const repeat = payout({ externalId: 'b' })
  const r = grade('refusal-not-retried', { requests: [first, repeat] })
  t.match(r, { status: 'failed', summary: '1 refused pay-out sent again unchanged and refused again' })
  t.same(r.evidence[0].requestIds, [first.id, repeat.id])
  const qr = (fields: Partial<RequestFact>) => req({ route: '/api/pix/cash-out-qrcode', status: 422, errorCode: 'QRCODE_ALREADY_PAID', target: '000201...', amountCents: 1000, ...fields })
  t.match(grade('refusal-not-retried', { requests: [qr({}), qr({})] }), { status: 'failed' }, 'a used-up QR code paid again')
  const many = Array.from({ length: MAX_EVIDENCE + 3 }, () => payout({}))
  const capped = grade('refusal-not-retried', { requests: many })
  t.equal(capped.evidence.length, MAX_EVIDENCE + 1)
  t.match(capped.evidence.at(-1), { note: 'and 2 more', requestIds: [] })
})

t.test('indeterminate-payout-resolved', async t => {
  const qrCode = '00020126...'
  const lost = (fields: Partial<RequestFact> = {}) => req({ route: '/api/pix/cash-out-qrcode', at: T, status: 500, errorCode: 'INTERNAL_ERROR', externalId: 'qr-1', target: qrCode, amountCents: 1000, ...fields })
  const made = tx({ kind: 'CASH_OUT_QRCODE', externalId: 'qr-1', data: { qrCode }, status: 'PENDING' })
  t.match(grade('indeterminate-payout-resolved', { requests: [req({ route: '/api/pix/cash-out', status: 201 })] }), { status: 'not_exercised', summary: /INTERNAL_ERROR/ })
  const query = req({ method: 'GET', route: '/__sandbox/transactions', at: T + 1 })
  t.match(grade('indeterminate-payout-resolved', { requests: [lost(), query], transactions: [made] }), { status: 'passed', summary: '1 indeterminate pay-out, each resolved by a query or a retry with the same key, none paid twice' })
  const retry = lost({ at: T + 1, status: 409, errorCode: 'PIX_DUPLICATE_EXTERNAL_ID' })
  t.match(grade('indeterminate-payout-resolved', { requests: [lost(), retry], transactions: [made] }), { status: 'passed' }, 'a retry with the same externalId')
  const reset = req({ route: '/dict/pix', status: null, idempotencyKey: 'k-1', target: '+5511999999999', amountCents: 1000 })
  const sameKey = req({ route: '/dict/pix', at: T + 1, status: 201, idempotencyKey: 'k-1', target: '+5511999999999', amountCents: 1000 })
  t.match(grade('indeterminate-payout-resolved', { requests: [reset, sameKey], transactions: [tx({ kind: 'DICT_TRANSFER', idempotencyKey: 'k-1', pixKey: '+5511999999999' })] }),
    { status: 'passed' }, 'a reset connection on /dict/pix, retried with the same x-idempotency-key')

  const first = lost()
  const leftUnknown = grade('indeterminate-payout-resolved', { requests: [first], transactions: [made] })
  t.match(leftUnknown, { status: 'failed', evidence: [{ note: /answered 500 INTERNAL_ERROR, and no transaction query or retry/, requestIds: [first.id] }] })
  const twice = tx({ kind: 'CASH_OUT_QRCODE', externalId: 'qr-2', data: { qrCode }, createdAt: new Date(T + 1).toISOString() })
  const paidTwice = grade('indeterminate-payout-resolved', { requests: [first, lost({ at: T + 1, status: 201, errorCode: null, externalId: 'qr-2' }), query], transactions: [made, twice] })
  t.match(paidTwice, { status: 'failed', evidence: [{ note: /paid the same amount again under another key/, requestIds: [first.id] }] })
  t.same(paidTwice.evidence[0].transactionIds, [made.id, twice.id])
  const paidBefore = tx({ kind: 'CASH_OUT_QRCODE', externalId: 'qr-0', data: { qrCode } })
  const earlierOrder = req({ route: '/api/pix/cash-out-qrcode', status: 201, externalId: 'qr-0', target: qrCode, amountCents: 1000 })
  t.match(grade('indeterminate-payout-resolved', { requests: [earlierOrder, first, query], transactions: [paidBefore, made] }),
    { status: 'passed' }, 'the same payment made before the 500, at the same frozen instant, is not a second one')
  const failedFirst = tx({ kind: 'CASH_OUT_QRCODE', externalId: 'qr-1', data: { qrCode }, status: 'ERROR' })
  t.match(grade('indeterminate-payout-resolved', { requests: [first, query], transactions: [failedFirst, twice] }), { status: 'passed' }, 'paid again after the first one failed: once in all')
})

t.test('final-error-not-retried', async t => {
  const failedTx = (errorCode: string, fields: Partial<Transaction> = {}) => tx({
    status: 'ERROR', errorCode, history: [{ status: 'PENDING', at: new Date(T).toISOString() }, { status: 'ERROR', at: new Date(T + 50).toISOString() }], ...fields,
  })
  const later = (fields: Partial<Transaction> = {}) => tx({ createdAt: new Date(T + MIN).toISOString(), ...fields })
  t.match(grade('final-error-not-retried', { transactions: [failedTx('SETTLEMENT_TIMEOUT'), later()] }), { status: 'not_exercised' }, 'a retryable error may be sent again')
  t.match(grade('final-error-not-retried', { transactions: [tx({ status: 'ERROR', errorCode: 'PROVIDER_REJECTED', kind: 'CASH_OUT_QRCODE', history: [{ status: 'ERROR', at: new Date(T).toISOString() }] })] }),
    { status: 'not_exercised' }, 'a QR code refused at once is refusal-not-retried\'s business')
  t.match(grade('final-error-not-retried', { transactions: [failedTx('BLOCKED_ACCOUNT'), later({ pixKey: 'other@example.com' }), later({ amountCents: 999 })] }),
    { status: 'passed', summary: '1 pay-out ended with a final error, none sent again' })
  const earlier = tx({})
  t.match(grade('final-error-not-retried', { transactions: [earlier, failedTx('BLOCKED_ACCOUNT', { history: [{ status: 'PENDING', at: new Date(T).toISOString() }, { status: 'ERROR', at: new Date(T).toISOString() }] })] }),
    { status: 'passed' }, 'the same payment made before it, at the same frozen instant, was not sent again')
  const blocked = failedTx('BLOCKED_ACCOUNT')
  const again = later()
  t.match(grade('final-error-not-retried', { transactions: [blocked, again] }), { status: 'failed', evidence: [{ note: /BLOCKED_ACCOUNT is final/, transactionIds: [blocked.id, again.id] }] })
  t.equal(payoutTarget(tx({ kind: 'CASH_IN' })), null, 'a charge has no pay-out destination')
})

t.test('webhooks-acknowledged', async t => {
  t.match(grade('webhooks-acknowledged', { deliveries: [delivery([], { url: null, status: 'no_receiver' }), delivery([], { status: 'dropped' })] }), { status: 'not_exercised' })
  t.match(grade('webhooks-acknowledged', { deliveries: [delivery([attempt(401)], { scenarios: ['WEBHOOK_BAD_SIGNATURE'], status: 'failed' })] }), { status: 'not_exercised' }, 'the probe is not owed a 2xx')
  const ok = grade('webhooks-acknowledged', {
    deliveries: [
      delivery([attempt(200, { latencyMs: 12 }), attempt(204, { kind: 'duplicate' })]),
      // The fault makes the first attempt a timeout whatever the receiver said: not the receiver's doing.
      delivery([attempt(null, { error: 'TIMEOUT: simulado' }), attempt(200, { kind: 'retry' })], { scenarios: ['WEBHOOK_RECEIVER_TIMEOUT'] }),
      delivery([attempt(null, { error: 'SELF_ADDRESS: a URL aponta para o próprio sandbox' })]),
    ],
  })
  t.match(ok, { status: 'passed', summary: '3 attempts to 2 deliveries, all answered 2xx (slowest 12 ms)' })
  const bad = delivery([attempt(500), attempt(null, { kind: 'retry', error: 'TIMEOUT after 5000 ms' }), attempt(200, { kind: 'retry' })], { eventType: 'cash_in' })
  const failed = grade('webhooks-acknowledged', { deliveries: [bad, delivery([attempt(200)])] })
  t.match(failed, { status: 'failed', summary: '1 delivery of 2 had an attempt not answered 2xx' })
  t.same(failed.evidence[0].deliveryIds, [bad.id])
  t.match(failed.evidence[0].note, 'cash_in to http://127.0.0.1:9/hook: HTTP 500; TIMEOUT after 5000 ms')
})

t.test('webhook-signature-verified', async t => {
  const probe = (attempts: DeliveryAttempt[]) => delivery(attempts, { scenarios: ['WEBHOOK_BAD_SIGNATURE'], status: 'failed' })
  t.match(grade('webhook-signature-verified', { deliveries: [delivery([attempt(200)]), probe([])] }), { status: 'not_exercised', summary: /report\/probe/ }, 'a probe still pending is not graded')
  t.match(grade('webhook-signature-verified', { deliveries: [probe([attempt(401)]), probe([attempt(400)])] }), { status: 'passed', summary: '2 badly signed webhooks, each refused with 401, 400' })
  for (const [got, note] of [[attempt(200), /accepted with 200/], [attempt(500), /answered 500 instead of a 4xx/], [attempt(null), /not answered \(TIMEOUT\)/]] as const) {
    const d = probe([got])
    t.match(grade('webhook-signature-verified', { deliveries: [d] }), { status: 'failed', evidence: [{ note, deliveryIds: [d.id] }] })
  }
})

t.test('refunds-within-amount', async t => {
  const refund = (fields: Partial<RequestFact>) => req({ route: '/pix/:e2eid/devolucao/:id', method: 'PUT', status: 201, target: 'E123', amountCents: 500, ...fields })
  t.match(grade('refunds-within-amount', { requests: [call(T)] }), { status: 'not_exercised' })
  t.match(grade('refunds-within-amount', { requests: [refund({}), refund({ route: '/api/pix/refund-in/:id', method: 'POST' }), refund({ status: 400, errorCode: 'HTTP_ERROR' })] }),
    { status: 'passed', summary: '3 refund requests, all within the original amount' })
  const over = refund({ status: 400, errorCode: 'REFUND_AMOUNT_EXCEEDS_ORIGINAL' })
  t.match(grade('refunds-within-amount', { requests: [refund({}), over] }), { status: 'failed', evidence: [{ note: /E123 refused/, requestIds: [over.id] }] })
})

t.test('charge-external-id-unique', async t => {
  const charge = (fields: Partial<RequestFact>) => req({ route: '/api/pix/cash-in', status: 201, externalId: 'order-1', ...fields })
  t.match(grade('charge-external-id-unique', { requests: [req({ route: '/cob/:txid', method: 'GET' })] }), { status: 'not_exercised' }, 'reading a cob creates nothing')
  t.match(grade('charge-external-id-unique', { requests: [charge({}), charge({ route: '/cob/:txid', method: 'PUT', externalId: 'a'.repeat(26) })] }), { status: 'passed', summary: '2 charge creations, each with its own id' })
  const dup = charge({ status: 400, errorCode: 'PIX_DUPLICATE_EXTERNAL_ID' })
  const cob = charge({ route: '/cob/:txid', method: 'PUT', status: 409, errorCode: 'COB_TXID_EXISTS' })
  const r = grade('charge-external-id-unique', { requests: [charge({}), dup, cob] })
  t.match(r, { status: 'failed', summary: '2 charges of 3 created with an id already used' })
  t.same(r.evidence.map(e => e.requestIds[0]), [dup.id, cob.id])
})

t.test('requests-valid', async t => {
  t.match(grade('requests-valid', { requests: [req({ route: '/__sandbox/transactions', method: 'GET' }), call(T, { accountId: 8 })] }), { status: 'not_exercised' }, 'control-plane queries and other accounts do not count')
  t.match(grade('requests-valid', { requests: [call(T), req({ route: '/api/pix/cash-out', status: 400, errorCode: 'PIX_INSUFFICIENT_BALANCE' })] }), { status: 'passed', summary: '2 requests, none refused as invalid' })
  const invalid = req({ route: '/api/pix/cash-out', status: 400, errorCode: 'HTTP_ERROR' })
  const amount = req({ route: '/api/pix/cash-in', status: 400, errorCode: 'PIX_INVALID_AMOUNT' })
  const r = grade('requests-valid', { requests: [call(T), invalid, amount] })
  t.match(r, { status: 'failed', summary: '2 requests of 3 refused as invalid', evidence: [{ note: 'POST /api/pix/cash-out refused HTTP_ERROR', requestIds: [invalid.id] }, { requestIds: [amount.id] }] })
})

t.test('token-reused and token-renewed count API Pix\'s tokens (POST /oauth/token, 200) and requests', async t => {
  const oauth = (at: number, scope: string | null = 'cob.read cob.write') => apiPix({ route: '/oauth/token', status: 200, at, scope })
  const cob = (at: number, fields: Partial<RequestFact> = {}) => apiPix({ method: 'GET', route: '/cob/:txid', at, ...fields })
  t.match(grade('token-reused', { requests: [oauth(T), cob(T), cob(T + MIN), oauth(T + 28 * MIN), cob(T + 29 * MIN)] }),
    { status: 'passed', summary: '2 tokens for 3 authenticated requests' }, 'one OAuth token reused, renewed near its end')
  const early = oauth(T + MIN)
  t.match(grade('token-reused', { requests: [oauth(T), cob(T), early, cob(T + MIN)] }), { status: 'failed', evidence: [{ requestIds: [early.id] }] }, 'a token per request')
  t.match(grade('token-reused', { requests: [token(T), call(T), oauth(T + MIN), cob(T + MIN), oauth(T + 2 * MIN, 'pix.read'), cob(T + 2 * MIN)] }),
    { status: 'passed', summary: '3 tokens for 3 authenticated requests' }, 'a gateway token, then API Pix tokens of other scopes: none is a renewal of another')
  t.match(grade('token-reused', { requests: [oauth(T, null), cob(T), oauth(T + MIN, null), cob(T + MIN)] }), { status: 'failed' }, 'scopes unknown (no bodies): the same token')
  t.match(grade('token-reused', { requests: [oauth(T), cob(T, { status: 403, errorCode: 'ACCESS_DENIED' }), cob(T)] }), { status: 'passed' }, 'a 403 is an authenticated request')

  const expired = cob(T + 31 * MIN, { status: 401, expiredToken: true })
  t.match(grade('token-renewed', { requests: [oauth(T), expired, oauth(T + 31 * MIN), cob(T + 31 * MIN)] }), { status: 'passed' }, 'a new OAuth token after the 401')
  t.match(grade('token-renewed', { requests: [oauth(T), expired] }), { status: 'failed', evidence: [{ note: /no new token was requested/ }] })
  t.match(grade('token-renewed', { requests: [oauth(T), cob(T), oauth(T + 29 * MIN), cob(T + 31 * MIN)] }), { status: 'passed', summary: /renewed before expiry/ })
})

t.test('charge-external-id-unique: API Pix\'s cob creations; the same PUT sent again is a retry, not a reuse', async t => {
  const body = canonical({ valor: { original: '10.00' }, chave: 'k' })
  const put = (fields: Partial<RequestFact> = {}) => apiPix({ method: 'PUT', route: '/cob/:txid', status: 201, externalId: 't'.repeat(26), sent: body, ...fields })
  const inUse = { status: 400, errorCode: 'COB_TXID_EXISTS' }
  t.match(grade('charge-external-id-unique', { requests: [put(), apiPix({ method: 'POST', route: '/cob', status: 201, sent: body }), apiPix({ method: 'PATCH', route: '/cob/:txid' })] }),
    { status: 'passed', summary: '2 charge creations, each with its own id' }, 'a revision creates nothing')
  t.match(grade('charge-external-id-unique', { requests: [put({ status: null }), put(inUse)] }), { status: 'passed' }, 'sent again after no answer: its txid in use says it was made')
  t.match(grade('charge-external-id-unique', { requests: [put(), put(inUse)] }), { status: 'passed' }, 'the same charge sent again (a lost answer the client gave up on)')
  t.match(grade('charge-external-id-unique', { requests: [put({ sent: null, status: 500 }), put({ ...inUse, sent: null })] }), { status: 'passed' }, 'no bodies: after an unknown outcome')
  const other = put({ ...inUse, sent: canonical({ valor: { original: '99.00' }, chave: 'k' }) })
  t.match(grade('charge-external-id-unique', { requests: [put(), other] }), { status: 'failed', evidence: [{ note: `API Pix PUT /cob/:txid with ${'t'.repeat(26)} refused COB_TXID_EXISTS`, requestIds: [other.id] }] }, 'another charge under a txid in use')
  const rootAgain = req({ method: 'PUT', route: '/cob/:txid', status: 409, errorCode: 'COB_TXID_EXISTS', externalId: 't'.repeat(26), sent: body })
  t.match(grade('charge-external-id-unique', { requests: [put(), rootAgain] }), { status: 'failed' }, 'a txid of API Pix used again on the gateway is not a retry of the same request')
})

t.test('requests-valid grades the gateway alone; api-pix-requests-valid API Pix, with its violacoes', async t => {
  const invalid = apiPix({ method: 'PUT', route: '/cob/:txid', status: 400, errorCode: 'HTTP_ERROR', violations: ['cob.valor.original: valor.original deve ser do tipo texto'] })
  t.match(grade('requests-valid', { requests: [invalid] }), { status: 'not_exercised' }, 'no gateway request')
  t.match(grade('api-pix-requests-valid', { requests: [call(T)] }), { status: 'not_exercised', summary: /no request reached API Pix/ })
  t.match(grade('api-pix-requests-valid', { requests: [apiPix({ route: '/cob', status: 201 }), apiPix({ route: '/cob/:txid', status: 400, errorCode: 'COB_TXID_EXISTS' }), apiPix({ route: '/cob/:txid', method: 'GET', status: 404 })] }),
    { status: 'passed', summary: '3 requests, none refused as invalid' }, 'a txid in use and a 404 are not invalid data')
  const scope = apiPix({ route: '/oauth/token', status: 400, errorCode: 'INVALID_SCOPE' })
  const r = grade('api-pix-requests-valid', { requests: [apiPix({ route: '/cob', status: 201 }), invalid, scope, apiPix({ route: '/cob', status: 400, errorCode: 'HTTP_ERROR', accountId: 8 })] })
  t.match(r, { status: 'failed', summary: '2 requests of 3 refused as invalid' })
  t.same(r.evidence.map(e => [e.note, e.requestIds]), [
    ['API Pix PUT /cob/:txid refused cob.valor.original: valor.original deve ser do tipo texto', [invalid.id]],
    ['API Pix POST /oauth/token refused INVALID_SCOPE', [scope.id]],
  ])
})

t.test('scope-refusal-not-retried', async t => {
  const denied = (fields: Partial<RequestFact> = {}) => apiPix({ method: 'PUT', route: '/cob/:txid', status: 403, errorCode: 'ACCESS_DENIED', tokenId: 'narrow', ...fields })
  t.match(grade('scope-refusal-not-retried', { requests: [apiPix({ route: '/cob', status: 201 })] }), { status: 'not_exercised', summary: /scope=cob.read/ })
  t.match(grade('scope-refusal-not-retried', { requests: [denied(), apiPix({ route: '/oauth/token', status: 200 }), apiPix({ method: 'PUT', route: '/cob/:txid', status: 201, tokenId: 'wide' })] }),
    { status: 'passed', summary: '1 request refused for a scope, none sent again with the same token' }, 'a token with the scope, then the call again')
  t.match(grade('scope-refusal-not-retried', { requests: [denied(), denied({ method: 'GET' }), denied({ tokenId: 'other' })] }), { status: 'passed' }, 'another operation, or another token')
  t.match(grade('scope-refusal-not-retried', { requests: [denied({ tokenId: null }), denied({ tokenId: null })] }), { status: 'passed' }, 'the token unknown: not called the same')
  const first = denied()
  const again = denied()
  t.match(grade('scope-refusal-not-retried', { requests: [first, again] }), { status: 'failed', evidence: [{ note: /refused AcessoNegado twice with the same token/, requestIds: [first.id, again.id] }] })
})

t.test('cob-creation-resolved', async t => {
  const body = canonical({ valor: { original: '10.00' }, chave: 'k' })
  const put = (txid: string, fields: Partial<RequestFact> = {}) => apiPix({ method: 'PUT', route: '/cob/:txid', status: 201, externalId: txid, sent: body, ...fields })
  const post = (fields: Partial<RequestFact> = {}) => apiPix({ method: 'POST', route: '/cob', status: 201, sent: body, ...fields })
  const read = (txid: string) => apiPix({ method: 'GET', route: '/cob/:txid', status: 200, externalId: txid })
  const list = apiPix({ method: 'GET', route: '/cob', status: 200 })
  const A = 'a'.repeat(26)
  const B = 'b'.repeat(26)
  t.match(grade('cob-creation-resolved', { requests: [put(A), post()] }), { status: 'not_exercised', summary: /CONNECTION_RESET;after=commit/ })
  t.match(grade('cob-creation-resolved', { requests: [req({ method: 'PUT', route: '/cob/:txid', status: null, externalId: A, sent: body }), req({ method: 'POST', route: '/cob', status: 201, sent: body })] }),
    { status: 'not_exercised' }, 'the gateway\'s cob is not graded here')
  t.match(grade('cob-creation-resolved', { requests: [put(A, { status: null }), put(A, { status: 400, errorCode: 'COB_TXID_EXISTS' })] }),
    { status: 'passed', summary: '1 charge creation without an answer, none created again under another txid' }, 'the same PUT again')
  t.match(grade('cob-creation-resolved', { requests: [put(A, { status: null }), read(A), put(B)] }), { status: 'passed' }, 'read first (say it was not found), then created anew')
  t.match(grade('cob-creation-resolved', { requests: [post({ status: null }), list, post()] }), { status: 'passed' }, 'a POST left unknown, the list read, then another POST')
  t.match(grade('cob-creation-resolved', { requests: [put(A, { status: 500 }), put(B, { sent: canonical({ valor: { original: '11.00' }, chave: 'k' }) })] }), { status: 'passed' }, 'another charge')
  t.match(grade('cob-creation-resolved', { requests: [put(A, { status: null })] }), { status: 'passed' }, 'left alone: nothing created twice')
  const lost = post({ status: null })
  const again = post()
  t.match(grade('cob-creation-resolved', { requests: [lost, again] }), { status: 'failed', evidence: [{ note: 'API Pix POST /cob got no answer; the same charge was then created again by POST /cob', requestIds: [lost.id, again.id] }] })
  const lostPut = put(A, { status: null })
  const newTxid = put(B)
  t.match(grade('cob-creation-resolved', { requests: [lostPut, newTxid, read(A)] }), { status: 'failed', evidence: [{ note: new RegExp(`PUT /cob/:txid with txid ${B}`), requestIds: [lostPut.id, newTxid.id] }] }, 'read only after creating it again')
})

t.test('cob-creation-resolved and charge-external-id-unique count API Pix\'s cobv: a lost PUT /cobv/{txid} is resolved by its txid', async t => {
  const body = canonical({ calendario: { dataDeVencimento: '2026-03-20' }, valor: { original: '10.00' }, chave: 'k' })
  const putV = (txid: string, fields: Partial<RequestFact> = {}) => apiPix({ method: 'PUT', route: '/cobv/:txid', status: 201, externalId: txid, sent: body, ...fields })
  const A = 'a'.repeat(26)
  const B = 'b'.repeat(26)
  t.match(grade('charge-external-id-unique', { requests: [putV(A), putV(B)] }), { status: 'passed', summary: '2 charge creations, each with its own id' })
  const taken = putV(B, { status: 400, errorCode: 'COB_TXID_EXISTS', sent: canonical({ valor: { original: '1.00' } }) })
  t.match(grade('charge-external-id-unique', { requests: [apiPix({ method: 'PUT', route: '/cob/:txid', status: 201, externalId: B }), taken] }),
    { status: 'failed', evidence: [{ note: `API Pix PUT /cobv/:txid with ${B} refused COB_TXID_EXISTS`, requestIds: [taken.id] }] }, 'a cobv under the txid of a cob')
  t.match(grade('cob-creation-resolved', { requests: [putV(A, { status: null }), apiPix({ method: 'GET', route: '/cobv/:txid', status: 200, externalId: A }), putV(B)] }),
    { status: 'passed', summary: '1 charge creation without an answer, none created again under another txid' }, 'read by its txid first')
  t.match(grade('cob-creation-resolved', { requests: [putV(A, { status: null }), putV(A)] }), { status: 'passed' }, 'the same PUT again')
  t.match(grade('cob-creation-resolved', { requests: [putV(A, { status: null }), apiPix({ method: 'GET', route: '/cobv', status: 200 }), putV(B)] }), { status: 'passed' }, 'the list of cobv read')
  const lost = putV(A, { status: 500 })
  const again = putV(B)
  t.match(grade('cob-creation-resolved', { requests: [lost, apiPix({ method: 'GET', route: '/cob', status: 200 }), again] }),
    { status: 'failed', evidence: [{ note: `API Pix PUT /cobv/:txid answered 500; the same charge was then created again by PUT /cobv/:txid with txid ${B}`, requestIds: [lost.id, again.id] }] }, 'the list of cob shows no cobv')
})

t.test('refunds-within-amount and webhooks-acknowledged grade API Pix alone: its devolução, its callbacks to {webhookUrl}/pix', async t => {
  const devolucao = (fields: Partial<RequestFact> = {}) => apiPix({ method: 'PUT', route: '/pix/:e2eid/devolucao/:id', status: 201, externalId: 'd1', target: 'E1', amountCents: 500, ...fields })
  t.match(grade('refunds-within-amount', { requests: [devolucao()] }), { status: 'passed', summary: '1 refund request, all within the original amount' })
  const over = devolucao({ status: 400, errorCode: 'REFUND_AMOUNT_EXCEEDS_ORIGINAL' })
  t.match(grade('refunds-within-amount', { requests: [devolucao(), over] }), { status: 'failed', evidence: [{ note: 'refund of E1 refused: beyond what was left to refund', requestIds: [over.id] }] })
  const callback = delivery([attempt(200)], { eventType: 'pix', url: 'http://127.0.0.1:1/hook/pix', webhookId: null })
  t.match(grade('webhooks-acknowledged', { requests: [apiPix({ route: '/cob', status: 201 })], deliveries: [callback] }), { status: 'passed', summary: '1 attempt to 1 delivery, all answered 2xx (slowest 3 ms)' })
  t.match(grade('webhooks-acknowledged', { requests: [apiPix({ route: '/cob', status: 201 })], deliveries: [delivery([attempt(503)], { eventType: 'pix', url: 'http://127.0.0.1:1/hook/pix' })] }),
    { status: 'failed', evidence: [{ note: 'pix to http://127.0.0.1:1/hook/pix: HTTP 503' }] })
})

t.test('lists-paged-through', async t => {
  const page = (p: number, pages: number, list = '/cob {"fim":"b","inicio":"a"}') => apiPix({ method: 'GET', route: '/cob', status: 200, listPage: { list, page: p, pages } })
  t.match(grade('lists-paged-through', { requests: [page(0, 1), page(0, 0)] }), { status: 'not_exercised', summary: /2 list answers, none with more pages/ })
  t.match(grade('lists-paged-through', { requests: [page(0, 3), page(1, 3), page(2, 3)] }), { status: 'passed', summary: '2 list answers with more pages, each followed by the next' })
  t.match(grade('lists-paged-through', { requests: [page(0, 3), page(0, 1)] }), { status: 'passed' }, 'asked again with pages large enough for the rest')
  const unread = page(0, 3)
  const again = page(0, 3)
  const other = page(1, 3, '/cob {"fim":"c","inicio":"a"}')
  const r = grade('lists-paged-through', { requests: [page(1, 3), unread, other, again] })
  t.match(r, { status: 'failed', summary: '4 list answers of 4 with more pages not followed by the next page' }, 'a page read before, another list\'s page, or page 0 again: not the next one')
  t.match(r.evidence[1], { note: 'API Pix GET /cob answered page 0 of 3 (counted from 0), and no later page of that list was asked for', requestIds: [unread.id] })
  t.same(r.evidence.slice(2).map(e => e.requestIds), [[other.id], [again.id]])
})

t.test('the facts each money route carries', async t => {
  const headers = { 'x-idempotency-key': 'k-1' }
  t.same(requestFields('POST', { route: '/api/pix/cash-out', params: {}, headers: {}, body: { value: 10.5, externalId: 'e', details: { key: 'k' } } }), { externalId: 'e', idempotencyKey: null, amountCents: 1050, target: 'k' })
  t.same(requestFields('POST', { route: '/dict/pix', params: {}, headers, body: { pixKey: 'p', payment: { amount: 1 } } }), { externalId: null, idempotencyKey: 'k-1', amountCents: 100, target: 'p' })
  t.same(requestFields('PUT', { route: '/pix/:e2eid/devolucao/:id', params: { e2eid: 'E1', id: 'd1' }, headers: {}, body: { valor: '2.50' } }), { externalId: 'd1', idempotencyKey: null, amountCents: 250, target: 'E1' })
  t.same(requestFields('PUT', { route: '/cob/:txid', params: { txid: 't' }, headers: {}, body: { valor: { original: 'x' } } }), { externalId: 't', idempotencyKey: null, amountCents: null, target: null }, 'an invalid amount is no amount')
  t.same(requestFields('POST', { route: '/api/pix/cash-in', params: {}, headers: {}, body: null }), { externalId: null, idempotencyKey: null, amountCents: null, target: null }, 'a missing body')
  t.same(requestFields('GET', { route: '/balance', params: {}, headers: {}, body: undefined }), { externalId: null, idempotencyKey: null, amountCents: null, target: null })
  // A dialect's own routes are read by its own `fields` (its report part), not by the built-in table.
  t.same(requestFields('POST', { route: '/v1/payments', params: {}, headers, body: { transaction_amount: 12.5, external_reference: 'order-1' } }), { externalId: null, idempotencyKey: null, amountCents: null, target: null }, 'no dialect, no reading')
  const own = graded().find(d => d.name === 'mercado-pago')?.fields
  t.same(requestFields('POST', { route: '/v1/payments', params: {}, headers, body: { transaction_amount: 12.5, external_reference: 'order-1' } }, own), { externalId: 'order-1', idempotencyKey: 'k-1', amountCents: 1250, target: null })
  t.same(requestFields('POST', { route: '/v1/payments/:id/refunds', params: { id: '140000000001' }, headers, body: { amount: 2 } }, own), { externalId: null, idempotencyKey: 'k-1', amountCents: 200, target: '140000000001' })
  t.same(requestFields('GET', { route: '/v1/payments/:id', params: { id: '140000000001' }, headers: {}, body: undefined }, own), { externalId: '140000000001', idempotencyKey: null, amountCents: null, target: null })
})

t.test('a journal entry as facts: what the report grades, the path\'s parameters, an unanswered request, an expired token', async t => {
  const entry = (fields: Partial<JournalEntry>): JournalEntry => ({
    id: 1,
    requestId: 'rq',
    at: '2026-03-10T15:00:00.000Z',
    wallTime: '2026-03-10T15:00:00.000Z',
    method: 'PUT',
    path: '/pix/E123/devolucao/d%201',
    query: {},
    route: '/pix/:e2eid/devolucao/:id',
    status: 400,
    durationMs: 1,
    accountId: ACCOUNT,
    tokenId: 'jti',
    idempotencyKey: null,
    externalId: null,
    scenarios: ['X'],
    errorCode: 'REFUND_AMOUNT_EXCEEDS_ORIGINAL',
    transactionId: null,
    request: { headers: {}, body: { valor: '10.01' } },
    response: { headers: {}, body: null },
    ...fields,
  })
  t.same(requestFact(entry({}), graded('/v2')), {
    id: 'rq',
    at: T,
    method: 'PUT',
    family: 'gateway',
    route: '/pix/:e2eid/devolucao/:id',
    status: 400,
    accountId: ACCOUNT,
    tokenId: 'jti',
    scenarios: ['X'],
    errorCode: 'REFUND_AMOUNT_EXCEEDS_ORIGINAL',
    expiredToken: false,
    externalId: 'd 1',
    idempotencyKey: null,
    amountCents: 1001,
    target: 'E123',
    scope: null,
    violations: [],
    sent: null,
    listPage: null,
    idRec: null,
  })
  const fact = (fields: Partial<JournalEntry>, base = '/v2') => requestFact(entry(fields), graded(base))
  t.match(fact({ status: 0 }), { status: null }, 'no answer went out')
  t.match(fact({ status: 401, errorCode: 'UNAUTHORIZED' }), { expiredToken: true }, 'a 401 for a token the sandbox signed')
  t.match(fact({ status: 401, tokenId: null }), { expiredToken: false }, 'a 401 for no token, or a forged one')
  t.match(fact({ request: { headers: {}, body: null } }), { amountCents: null, target: 'E123' }, 'without bodies (--journal-bodies false) the amount is unknown')
  t.match(fact({ method: 'POST', route: '/dict/pix', path: '/dict/pix', idempotencyKey: 'k', request: { headers: {}, body: { pixKey: 'p', payment: { amount: 2 } } } }), { idempotencyKey: 'k', amountCents: 200, target: 'p' })
  t.equal(fact({ route: null }), null, 'no route answered')
  t.equal(fact({ method: 'POST', route: '/__sandbox/webhooks', path: '/__sandbox/webhooks' }), null, 'the control plane is not graded')
  t.same(gradedAs('GET', '/__sandbox/transactions/:id', graded('/v2')), { family: 'control', route: '/__sandbox/transactions/:id' }, 'but its transaction query is')
  t.equal(gradedAs('POST', '/__sandbox/transactions/:id/settle', graded('/v2')), null)
  for (const route of ['/balance', '/accounts/balances', '/dict/pix', '/cob/:txid', '/cob', '/pix', '/api/med']) t.match(gradedAs('GET', route, graded('/v2')), { family: 'gateway', route }, route)

  // API Pix: its routes without the base path, whatever the base; its token; not the payloads payers read.
  t.same(gradedAs('PUT', '/v2/cob/:txid', graded('/v2')), { family: 'api-pix', route: '/cob/:txid' })
  t.same(gradedAs('PUT', '/api/v2/cob/:txid', graded('/api/v2')), { family: 'api-pix', route: '/cob/:txid' }, 'a base under /api/ is not the standard family')
  t.same(gradedAs('GET', '/pix/v2/loc', graded('/pix/v2')), { family: 'api-pix', route: '/loc' }, 'a base under /pix/ is not the gateway')
  t.same(gradedAs('POST', '/oauth/token', graded('/v2')), { family: 'api-pix', route: '/oauth/token' })
  t.equal(gradedAs('GET', '/qr/v2/:token', graded('/v2')), null, 'a payload location')
  t.equal(gradedAs('GET', '/.well-known/jwks.json', graded('/v2')), null, 'the key')
  const cob = { calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: 'k' }
  t.match(fact({ route: '/v2/cob/:txid', path: '/v2/cob/t1', errorCode: 'HTTP_ERROR', request: { headers: {}, body: cob }, response: { headers: {}, body: { type: 'x', violacoes: [{ razao: 'inválido', propriedade: 'cob.chave' }, { razao: 'sem propriedade' }] } } }),
    { family: 'api-pix', route: '/cob/:txid', externalId: 't1', amountCents: 1000, violations: ['cob.chave: inválido', 'sem propriedade'], sent: canonical(cob) })
  t.match(fact({ method: 'POST', route: '/v2/cob', path: '/v2/cob', status: 0, request: { headers: {}, body: { chave: 'k', valor: { original: '10.00' }, calendario: { expiracao: 3600 } } } }),
    { route: '/cob', status: null, amountCents: 1000, sent: canonical(cob) }, 'the same body with its keys in another order is the same charge')
  t.match(fact({ method: 'GET', route: '/v2/cob/:txid', path: '/v2/cob/t1', status: 200 }), { externalId: 't1', sent: null }, 'a read names its txid')
  const cobr = { idRec: 'RR1234567820260310abcdefghijk', calendario: { dataDeVencimento: '2026-03-20' }, valor: { original: '49.90' } }
  t.match(fact({ route: '/v2/cobr/:txid', path: '/v2/cobr/r1', status: 201, request: { headers: {}, body: cobr } }), { route: '/cobr/:txid', externalId: 'r1', amountCents: 4990, idRec: cobr.idRec }, 'a recurring charge names its recurrence')
  t.match(fact({ method: 'POST', route: '/v2/cobr', path: '/v2/cobr', status: 400, request: { headers: {}, body: null } }), { idRec: null }, 'without bodies')
  t.match(fact({ method: 'POST', route: '/v2/cobr/:txid/retentativa/:data', path: '/v2/cobr/r1/retentativa/2026-03-23', status: 400 }), { externalId: 'r1', idRec: null }, 'a retry names its charge')
  t.match(fact({ method: 'POST', route: '/oauth/token', path: '/oauth/token', status: 200, response: { headers: {}, body: { access_token: '[masked]', scope: 'cob.write cob.read' } } }),
    { family: 'api-pix', scope: 'cob.read cob.write' }, 'a token\'s scopes, in one order')
  t.match(fact({ method: 'POST', route: '/oauth/token', path: '/oauth/token', status: 200, response: { headers: {}, body: null } }), { scope: null }, 'without bodies')
  const list = fact({ method: 'GET', route: '/v2/cob', path: '/v2/cob', status: 200, query: { inicio: 'a', fim: 'b', 'paginacao.paginaAtual': 1, 'paginacao.itensPorPagina': 2 }, response: { headers: {}, body: { parametros: { inicio: 'a', fim: 'b', paginacao: { paginaAtual: 1, itensPorPagina: 2, quantidadeDePaginas: 3, quantidadeTotalDeItens: 5 } }, cobs: [] } } })
  t.same(list?.listPage, { list: '/cob {"fim":"b","inicio":"a"}', page: 1, pages: 3 }, 'the list is its route and filters, paging aside')
  t.equal(fact({ method: 'GET', route: '/v2/cob/:txid', path: '/v2/cob/t1', status: 200, response: { headers: {}, body: { txid: 't1' } } })?.listPage, null, 'not a list')
  t.same(paramsOf('/cob/:txid', '/cob/%E0%A4%A'), { txid: '%E0%A4%A' }, 'a bad escape is kept as sent')
})
