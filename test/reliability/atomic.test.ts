import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { balanceOf, bearer, buildTestApp, expectInjectedBug, tokenFor } from '../helpers/app.js'
import { cashOutBody } from '../helpers/payouts.js'
import type { WebhookEvent } from '../../server/webhooks/types.js'

/**
 * Every money operation is atomic (docs/reliability.md), with no data file too: when a step fails after
 * others changed something (a bug, an identifier that cannot be built), nothing of the operation
 * stays: not in the ledger, not in the records, not in the MED, not in the sequences.
 */

/** Makes the next event of `eventType` throw, as a bug in a late step of an operation would. */
function failNextEvent (app: FastifyInstance, eventType: WebhookEvent['eventType']): void {
  expectInjectedBug(app)
  const webhooks = app.sandbox.webhooks
  const original = webhooks.emit.bind(webhooks)
  webhooks.emit = (event: WebhookEvent) => {
    if (event.eventType === eventType) {
      webhooks.emit = original
      throw new Error(`injected failure while emitting ${eventType}`)
    }
    original(event)
  }
}

t.test('fail: a step that throws after the release leaves the pay-out pending with its money blocked', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  const { transactionId } = (await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(token), payload: cashOutBody({ value: 30 }) })).json()
  const before = await balanceOf(app, 1)
  failNextEvent(app, 'cash_out')
  const res = await app.inject({ method: 'POST', url: `/__sandbox/transactions/${transactionId}/fail`, payload: { errorCode: 'ORDER_REJECTED' } })
  t.equal(res.statusCode, 500)
  const tx = (await app.inject({ method: 'GET', url: `/__sandbox/transactions/${transactionId}` })).json()
  t.equal(tx.status, 'PENDING', 'still pending')
  t.equal(tx.errorCode, null)
  t.same(await balanceOf(app, 1), before, 'still blocked: nothing was released')
  t.equal(before.blocked, 30.5)
  t.ok((await balanceOf(app, 1)).invariantHolds)
  // The operation works once the failure is gone: nothing half-done stands in its way.
  const again = await app.inject({ method: 'POST', url: `/__sandbox/transactions/${transactionId}/fail`, payload: { errorCode: 'ORDER_REJECTED' } })
  t.equal(again.statusCode, 200)
  t.equal((await balanceOf(app, 1)).blocked, 0)
})

t.test('a MED approval that fails after the debit leaves no devolução, no debit and the MED where it was', async t => {
  const app = await buildTestApp(t)
  const received = (await app.inject({ method: 'POST', url: '/__sandbox/pix/incoming', payload: { accountId: 1, amount: 30 } })).json()
  const med = (await app.inject({ method: 'POST', url: '/__sandbox/med', payload: { endToEndId: received.endToEndId, reason: 'REFUND_REQUEST', cause: 'FRAUD' } })).json()
  t.equal((await app.inject({ method: 'POST', url: `/__sandbox/med/${med.id}/transition`, payload: { status: 'RECEIVED' } })).statusCode, 200)
  const before = await balanceOf(app, 1)
  const transactionsBefore = (await app.inject({ method: 'GET', url: '/__sandbox/transactions?accountId=1' })).json().transactions.length
  failNextEvent(app, 'med_accepted')
  const res = await app.inject({ method: 'POST', url: `/__sandbox/med/${med.id}/transition`, payload: { status: 'ANALYZED', analysisResult: 'APPROVED' } })
  t.equal(res.statusCode, 500)
  t.same(await balanceOf(app, 1), before, 'the 30.00 were not debited')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/transactions?accountId=1' })).json().transactions.length, transactionsBefore, 'no devolução was recorded')
  const after = (await app.inject({ method: 'GET', url: `/__sandbox/med/${med.id}` })).json()
  t.equal(after.status, 'RECEIVED', 'the MED is not ANALYZED')
  t.equal(after.analysisResult, null)
  const retry = await app.inject({ method: 'POST', url: `/__sandbox/med/${med.id}/transition`, payload: { status: 'ANALYZED', analysisResult: 'APPROVED' } })
  t.equal(retry.statusCode, 200)
  t.equal(retry.json().refund.valor, '30.00', 'approved whole the second time')
  t.equal((await balanceOf(app, 1)).available, before.available - 30)
})

t.test('a cash-out whose last step fails uses up neither money, externalId, nor a sequence number', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  const before = await balanceOf(app, 1)
  // The delivery of the creation has no event; a scheduled settlement is the last step: make the
  // scheduler refuse it, as a bug in a late step would.
  expectInjectedBug(app)
  const scheduler = app.sandbox.scheduler
  const at = scheduler.at.bind(scheduler)
  scheduler.at = ((...args: Parameters<typeof at>) => {
    scheduler.at = at
    throw new Error('injected failure while scheduling')
  }) as typeof at
  const body = cashOutBody({ value: 12, externalId: 'atomic-1' })
  const res = await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(token), payload: body })
  t.equal(res.statusCode, 500)
  t.same(await balanceOf(app, 1), before, 'nothing reserved')
  t.same((await app.inject({ method: 'GET', url: '/__sandbox/transactions?accountId=1' })).json().transactions, [], 'nothing recorded')
  const ok = await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(token), payload: body })
  t.equal(ok.statusCode, 201, 'the externalId is free')
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/transactions/${ok.json().transactionId}` })).json().seq, 1, 'the first transaction number is still the first')
})

t.test('an account whose creation fails uses up no id', async t => {
  const app = await buildTestApp(t)
  // A name with a lone surrogate cannot go into a certificate: the creation fails (whatever its status).
  const bad = await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: { name: 'LOJA \uD800' } })
  t.not(bad.statusCode, 201)
  const next = await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: {} })
  t.equal(next.json().accountId, 2, 'the next account takes the id the failed one would have had')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts' })).json().accounts.length, 2)
})
