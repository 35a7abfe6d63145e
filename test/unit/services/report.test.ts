import t, { type Test } from 'tap'
import { RequestJournal, type RecordedRequest } from '../../../server/journal/journal.js'
import type { AccountLookup, WebhookReads } from '../../../server/ports.js'
import { checks, graded } from '../../helpers/report.js'
import { ReportService } from '../../../server/report/service.js'
import type { Delivery, Mutable, WebhookRegistration } from '../../../server/store/state.js'
import type { WebhookEvent } from '../../../server/webhooks/types.js'
import { addAccount, engine, T0 } from './harness.js'
import { DeliveryTypes } from '../../../server/webhooks/samples.js'
import { gatewaySamples } from '../../../server/dialects/gateway/samples.js'
import { apiPixSamples } from '../../../server/dialects/api-pix/samples.js'
import { API_PIX_CALLBACKS, GATEWAY_EVENT_TYPES } from '../../../server/store/state.js'

// ReportService alone: the store and clock, an in-memory request journal fed by hand, and fakes for its
// other neighbours (the account lookup, and the webhooks: their log, registrations and publish).

let n = 0
function request (accountId: number, route: string, status: number, atMs: number, more: Partial<RecordedRequest> = {}): RecordedRequest {
  n++
  return {
    requestId: `req-${n}`,
    atMs,
    wallMs: atMs,
    method: 'POST',
    path: route,
    query: {},
    route,
    params: {},
    status,
    durationMs: 1,
    accountId,
    tokenId: null,
    idempotencyKey: null,
    externalId: null,
    scenarios: [],
    errorCode: null,
    requestHeaders: {},
    requestText: null,
    responseHeaders: {},
    responseText: null,
    ...more,
  }
}

function delivery (accountId: number, statusCode: number, scenarios: string[] = []): Delivery {
  n++
  const at = new Date(T0).toISOString()
  return {
    id: `delivery-${n}`,
    seq: n,
    accountId,
    eventType: 'cash_out',
    eventId: `event-${n}`,
    transactionId: null,
    webhookId: 1,
    url: 'http://127.0.0.1:9/hook',
    status: statusCode < 300 ? 'delivered' : 'failed',
    requestHeaders: {},
    body: {},
    nextAttemptAt: null,
    scenarios,
    createdAt: at,
    updatedAt: at,
    attempts: [{ at, kind: 'first', statusCode, latencyMs: 3, error: statusCode < 300 ? null : `HTTP ${statusCode}` }],
  } as Mutable<Delivery>
}

async function report (t: Test) {
  const e = await engine(t)
  addAccount(e.store, 1)
  addAccount(e.store, 2)
  const journal = new RequestJournal(100)
  const deliveries: Delivery[] = []
  const active: WebhookRegistration[] = []
  const published: WebhookEvent[] = []
  const accounts: AccountLookup = {
    require: id => {
      const a = e.store.account(id)
      if (!a) throw Object.assign(new Error(`Account ${id} not found`), { code: 'ACCOUNT_NOT_FOUND' })
      return a
    },
  }
  const webhooks: WebhookReads = {
    log: { query: f => deliveries.filter(d => d.accountId === f.accountId).sort((a, b) => b.seq - a.seq) },
    registrations: { activeFor: (accountId, eventType) => active.filter(w => w.accountId === accountId && w.eventType === eventType) },
    publishTo: event => { published.push(event as WebhookEvent); return [delivery(event.accountId, 400, ['WEBHOOK_BAD_SIGNATURE'])] },
  }
  // The gateway's events and API Pix's callbacks, with their samples; no webhook of API Pix here.
  const types = new DeliveryTypes()
  types.add(Object.fromEntries(GATEWAY_EVENT_TYPES.map(t => [t, { sample: gatewaySamples[t] }])))
  types.add(Object.fromEntries(API_PIX_CALLBACKS.map(t => [t, { sample: apiPixSamples[t] }])))
  const service = new ReportService({ ...e, accounts, journal, webhooks, dialects: graded('/v2'), checks, deliveries: types })
  return { ...e, service, journal, deliveries, active, published }
}

const check = (r: ReturnType<ReportService['report']>, id: string) => r.checks.find(c => c.id === id)!

t.test('an account that did nothing: no check applies (it used neither dialect), the verdict incomplete', async t => {
  const { service } = await report(t)
  const r = service.report(1)
  t.equal(r.accountId, 1)
  t.equal(r.generatedAt, new Date(T0).toISOString(), 'sandbox time')
  t.equal(r.verdict, 'incomplete', 'nothing passed')
  t.same(r.counts, { passed: 0, failed: 0, not_exercised: 0, not_applicable: checks.length })
  t.same(r.read, { requests: 0, deliveries: 0, transactions: 0 })
  t.same(r.checks.map(c => c.id), checks.map(c => c.id), 'every check of the catalogue, in its order')
  for (const c of r.checks) {
    t.match(c.docs, c.dialects.includes('gateway') ? /^docs\/gateway\.md#/ : c.dialects.includes('mercado-pago') ? /^docs\/mercado-pago\.md#/ : /^docs\/api-pix\.md#/, `${c.id} links its section`)
    t.match(c.summary, /^the integration made no request to /)
  }
  t.throws(() => service.report(42), { code: 'ACCOUNT_NOT_FOUND' })
})

t.test('a webhook answered 500 fails its check with the delivery as evidence; 2xx passes it', async t => {
  const { service, deliveries } = await report(t)
  const bad = delivery(1, 500)
  deliveries.push(delivery(1, 200), bad, delivery(2, 500))
  const r = service.report(1)
  t.equal(r.verdict, 'failed')
  t.equal(r.read.deliveries, 2, 'only the account\'s own')
  const acknowledged = check(r, 'webhooks-acknowledged')
  t.equal(acknowledged.status, 'failed')
  t.same(acknowledged.evidence.flatMap(e => e.deliveryIds), [bad.id])
  t.equal(check(service.report(2), 'webhooks-acknowledged').status, 'failed', 'account 2 is graded on its own failure')
  deliveries.splice(0, deliveries.length, delivery(1, 204))
  t.equal(check(service.report(1), 'webhooks-acknowledged').status, 'passed')
})

t.test('tokens fetched again long before expiry fail the reuse check, with the requests as evidence', async t => {
  const { service, journal } = await report(t)
  journal.record(request(1, '/api/auth/token', 201, T0))
  journal.record(request(1, '/balance', 200, T0 + 1_000, { method: 'GET' }))
  const early = request(1, '/api/auth/token', 201, T0 + 60_000)
  journal.record(early)
  journal.record(request(1, '/balance', 200, T0 + 61_000, { method: 'GET' }))
  journal.record(request(2, '/api/auth/token', 201, T0))
  const r = service.report(1)
  t.equal(r.read.requests, 4, 'the account\'s graded requests only')
  const reuse = check(r, 'token-reused')
  t.equal(reuse.status, 'failed')
  t.ok(reuse.evidence.some(e => e.requestIds.includes(early.requestId)))
  t.equal(check(service.report(2), 'token-reused').status, 'not_exercised')
})

t.test('API Pix\'s requests, under the base path the service is given, are graded as that dialect\'s; the gateway\'s checks it never exercised do not apply', async t => {
  const { service, journal } = await report(t)
  journal.record(request(1, '/oauth/token', 200, T0))
  journal.record(request(1, '/v2/cob/:txid', 201, T0 + 1_000, { method: 'PUT' }))
  journal.record(request(1, '/v2/cob/:txid', 200, T0 + 2_000, { method: 'GET' }))
  const r = service.report(1)
  t.equal(r.read.requests, 3)
  t.equal(check(r, 'token-reused').status, 'passed', 'one OAuth token for two requests')
  t.equal(check(r, 'api-pix-requests-valid').status, 'passed')
  t.equal(check(r, 'charge-external-id-unique').status, 'passed', 'a cob of API Pix is a charge')
  for (const id of ['refusal-not-retried', 'indeterminate-payout-resolved', 'final-error-not-retried', 'webhook-signature-verified', 'requests-valid']) {
    t.match(check(r, id), { status: 'not_applicable', summary: 'the integration made no request to gateway' }, id)
  }
  t.match(check(r, 'webhooks-acknowledged'), { status: 'not_exercised' }, 'a check of both dialects applies')
  t.equal(r.verdict, 'incomplete')
  // The gateway's five, and Mercado Pago's three: neither was used.
  t.equal(r.counts.not_applicable, 5 + checks.filter(c => c.dialects.length === 1 && c.dialects[0] === 'mercado-pago').length)

  journal.record(request(1, '/balance', 200, T0 + 3_000, { method: 'GET' }))
  t.equal(check(service.report(1), 'requests-valid').status, 'passed', 'once it used the gateway, its checks apply')
  t.equal(check(service.report(1), 'refusal-not-retried').status, 'not_exercised')
})

t.test('the probe sends a badly signed sample to an active receiver, or says there is none', async t => {
  const { service, active, published } = await report(t)
  t.throws(() => service.probe(1), { code: 'NO_RECEIVER' })
  active.push({ id: 1, accountId: 1, eventType: 'cash_in', url: 'http://127.0.0.1:9/hook', headers: {}, isActive: true, version: 1, createdAt: '', updatedAt: '' })
  t.throws(() => service.probe(1, 'cash_out'), { code: 'NO_RECEIVER', message: /cash_out/ }, 'none for the type asked')
  const sent = service.probe(1)
  t.equal(published.length, 1)
  t.match(published[0], { accountId: 1, eventType: 'cash_in', scenarios: [{ name: 'WEBHOOK_BAD_SIGNATURE', params: {} }] })
  t.ok(published[0].payload, 'a sample payload of the event type')
  t.equal(sent.length, 1, 'the deliveries the probe started')
  t.throws(() => service.probe(42), { code: 'ACCOUNT_NOT_FOUND' })
})
