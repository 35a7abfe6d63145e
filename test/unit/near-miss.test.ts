import t from 'tap'
import { nearMissSentence, type DeliveryNearMiss } from '../../server/webhooks/delivery-log.js'
import type { Delivery } from '../../server/store/state.js'

/**
 * A wait's near miss says what became of a pending delivery, so a test that timed out knows whether
 * the sandbox has yet to send it, is waiting for its receiver, or is retrying it.
 */
const pending = (fields: Partial<Delivery>): DeliveryNearMiss => ({
  delivery: {
    id: 'd1',
    seq: 1,
    accountId: 1,
    eventType: 'cash_out',
    transactionId: 'tx',
    webhookId: 1,
    url: 'http://127.0.0.1:9/hook',
    status: 'pending',
    attempts: [],
    nextAttemptAt: null,
    ...fields,
  } as unknown as Delivery,
  differences: [{ field: 'status', expected: 'delivered', actual: 'pending' }],
})

t.test('a pending delivery: not yet sent, its first attempt out and unanswered, or a failed attempt and the next', async t => {
  t.match(nearMissSentence(pending({ nextAttemptAt: '2026-03-10T15:00:00.000Z' }), false),
    /is pending, not attempted yet \(first attempt due at 2026-03-10T15:00:00\.000Z of sandbox time\)/)
  t.match(nearMissSentence(pending({ nextAttemptAt: '2026-03-10T15:00:00.000Z' }), true), /\(the clock is frozen: POST \/__sandbox\/clock\/advance moves it\)/)
  // Its attempt is under way: nothing is due, the receiver has not answered yet (and a frozen clock is not the reason).
  const out = nearMissSentence(pending({ nextAttemptAt: null }), true)
  t.match(out, /is pending: its first attempt to http:\/\/127\.0\.0\.1:9\/hook is under way, not answered yet; it differs in status "pending", not "delivered"$/)
  t.notMatch(out, /not attempted yet|frozen/)
  const failed = pending({ nextAttemptAt: '2026-03-10T15:00:01.000Z', attempts: [{ at: '2026-03-10T15:00:00.000Z', kind: 'first', statusCode: null, latencyMs: 1, error: 'ECONNREFUSED: recusada', responseBody: null, requestHeaders: {} }] as Delivery['attempts'] })
  t.match(nearMissSentence(failed, false), /is pending: attempt 1 to http:\/\/127\.0\.0\.1:9\/hook failed \(ECONNREFUSED: recusada\), the next is due at 2026-03-10T15:00:01\.000Z of sandbox time/)
})
