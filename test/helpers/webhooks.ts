import { createRng } from '../../server/domain/ids.js'
import type { WebhookPayload } from '../../server/schemas/webhooks.js'
import type { EventType } from '../../server/store/state.js'
import { gatewaySamples } from '../../server/dialects/gateway/samples.js'
import { apiPixSamples } from '../../server/dialects/api-pix/samples.js'
import { accountRecord, T0 } from '../unit/services/harness.js'

/**
 * A payload of an event type's own shape (what POST /__sandbox/webhooks/test sends), for tests of the
 * delivery machinery that emit events themselves.
 */
export function examplePayload<E extends EventType> (eventType: E, transactionId = '00000000-0000-4000-8000-000000000001'): WebhookPayload<E> {
  const ctx = { account: accountRecord(1), transactionId, nowMs: T0, rng: createRng('example') }
  return (eventType === 'rec' ? apiPixSamples.rec(ctx) : gatewaySamples[eventType as Exclude<E, 'rec'>](ctx)) as WebhookPayload<E>
}
