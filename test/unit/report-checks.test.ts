import t from 'tap'
import { checks, checksMarkdown, MAX_EVIDENCE, type CheckResult } from '../../server/report/checks.js'
import { graded, paramsOf, payoutTarget, requestFact, requestFields, type IntegrationFacts, type RequestFact } from '../../server/report/facts.js'
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
    route: '/balance',
    status: 200,
    accountId: ACCOUNT,
    scenarios: [],
    errorCode: null,
    externalId: null,
    idempotencyKey: null,
    amountCents: null,
    target: null,
    expiredToken: false,
    ...fields,
  }
}
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

const facts = (f: Partial<IntegrationFacts>): IntegrationFacts => ({ accountId: ACCOUNT, requests: [], deliveries: [], transactions: [], ...f })
function grade (id: string, f: Partial<IntegrationFacts>): CheckResult {
  const check = checks.find(c => c.id === id)
  if (!check) throw new Error(`no check ${id}`)
  return check.evaluate(facts(f))
}

t.test('the catalogue: unique ids, a cited section that exists in docs/gateway.md, words for each state', async t => {
  const { readFileSync } = await import('node:fs')
  const gateway = readFileSync(new URL('../../docs/gateway.md', import.meta.url), 'utf8')
  const anchors = new Set([...gateway.matchAll(/^#+ (.+)$/gm)].map(m => '#' + m[1].toLowerCase().replace(/[^\p{L}\p{N} -]/gu, '').replace(/ /g, '-')))
  t.equal(new Set(checks.map(c => c.id)).size, checks.length)
  for (const c of checks) {
    t.match(c.id, /^[a-z]+(-[a-z]+)*$/)
    t.match(c.section, /^gateway \d/, `${c.id}: cites gateway N`)
    t.ok(anchors.has(c.anchor), `${c.id}: ${c.anchor} is a heading of docs/gateway.md`)
    for (const words of [c.title, c.passes, c.fails, c.exercise]) t.ok(words.length > 15, `${c.id}: described`)
  }
  t.equal(checksMarkdown().split('\n').length, checks.length + 2, 'one row per check')
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

t.test('the facts each money route carries', async t => {
  const headers = { 'x-idempotency-key': 'k-1' }
  t.same(requestFields('POST', { route: '/api/pix/cash-out', params: {}, headers: {}, body: { value: 10.5, externalId: 'e', details: { key: 'k' } } }), { externalId: 'e', idempotencyKey: null, amountCents: 1050, target: 'k' })
  t.same(requestFields('POST', { route: '/dict/pix', params: {}, headers, body: { pixKey: 'p', payment: { amount: 1 } } }), { externalId: null, idempotencyKey: 'k-1', amountCents: 100, target: 'p' })
  t.same(requestFields('PUT', { route: '/pix/:e2eid/devolucao/:id', params: { e2eid: 'E1', id: 'd1' }, headers: {}, body: { valor: '2.50' } }), { externalId: 'd1', idempotencyKey: null, amountCents: 250, target: 'E1' })
  t.same(requestFields('PUT', { route: '/cob/:txid', params: { txid: 't' }, headers: {}, body: { valor: { original: 'x' } } }), { externalId: 't', idempotencyKey: null, amountCents: null, target: null }, 'an invalid amount is no amount')
  t.same(requestFields('POST', { route: '/api/pix/cash-in', params: {}, headers: {}, body: null }), { externalId: null, idempotencyKey: null, amountCents: null, target: null }, 'a missing body')
  t.same(requestFields('GET', { route: '/balance', params: {}, headers: {}, body: undefined }), { externalId: null, idempotencyKey: null, amountCents: null, target: null })
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
  t.same(requestFact(entry({})), {
    id: 'rq',
    at: T,
    method: 'PUT',
    route: '/pix/:e2eid/devolucao/:id',
    status: 400,
    accountId: ACCOUNT,
    scenarios: ['X'],
    errorCode: 'REFUND_AMOUNT_EXCEEDS_ORIGINAL',
    expiredToken: false,
    externalId: 'd 1',
    idempotencyKey: null,
    amountCents: 1001,
    target: 'E123',
  })
  t.match(requestFact(entry({ status: 0 })), { status: null }, 'no answer went out')
  t.match(requestFact(entry({ status: 401, errorCode: 'UNAUTHORIZED' })), { expiredToken: true }, 'a 401 for a token the sandbox signed')
  t.match(requestFact(entry({ status: 401, tokenId: null })), { expiredToken: false }, 'a 401 for no token, or a forged one')
  t.match(requestFact(entry({ request: { headers: {}, body: null } })), { amountCents: null, target: 'E123' }, 'without bodies (--journal-bodies false) the amount is unknown')
  t.match(requestFact(entry({ method: 'POST', route: '/dict/pix', path: '/dict/pix', idempotencyKey: 'k', request: { headers: {}, body: { pixKey: 'p', payment: { amount: 2 } } } })), { idempotencyKey: 'k', amountCents: 200, target: 'p' })
  t.equal(requestFact(entry({ route: null })), null, 'no route answered')
  t.equal(requestFact(entry({ method: 'POST', route: '/__sandbox/webhooks', path: '/__sandbox/webhooks' })), null, 'the control plane is not graded')
  t.ok(graded('GET', '/__sandbox/transactions/:id'), 'but its transaction query is')
  t.notOk(graded('POST', '/__sandbox/transactions/:id/settle'))
  for (const route of ['/balance', '/accounts/balances', '/dict/pix', '/cob/:txid', '/api/med']) t.ok(graded('GET', route), route)
  t.same(paramsOf('/cob/:txid', '/cob/%E0%A4%A'), { txid: '%E0%A4%A' }, 'a bad escape is kept as sent')
})
