import { createRng } from '../../server/domain/ids.js'
import type { WebhookPayload } from '../../server/schemas/webhooks.js'
import type { EventType } from '../../server/store/state.js'
import { samplePayload } from '../../server/webhooks/samples.js'
import { accountRecord, T0 } from '../unit/services/harness.js'

/**
 * A payload of an event type's own shape (what POST /__sandbox/webhooks/test sends), for tests of the
 * delivery machinery that emit events themselves.
 */
export function examplePayload<E extends EventType> (eventType: E, transactionId = '00000000-0000-4000-8000-000000000001'): WebhookPayload<E> {
  return samplePayload(eventType, { account: accountRecord(1), transactionId, nowMs: T0, rng: createRng('example') })
}
