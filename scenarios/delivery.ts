import { EVENT_ENDPOINTS, scenarioDefinitions } from './types.js'

/**
 * Delivery faults: usable on any request that produces webhook events. They bend the delivery only
 * (the operation and the ledger follow the happy path or whatever other scenario says).
 */
export const deliveryScenarios = scenarioDefinitions([
  { name: 'WEBHOOK_DROP', endpoints: EVENT_ENDPOINTS, timing: 'delivery', effect: 'The events of this operation are never sent; the delivery log shows them with status dropped (a redelivery still sends them).' },
  { name: 'WEBHOOK_DUPLICATE', endpoints: EVENT_ENDPOINTS, timing: 'delivery', effect: 'Each event is sent twice with the same X-Sandbox-Delivery-Id, as a retry after a lost acknowledgement would be: once the first copy is acknowledged, a second copy follows; the log shows it as an attempt of kind duplicate.' },
  { name: 'WEBHOOK_DELAY', endpoints: EVENT_ENDPOINTS, timing: 'delivery', effect: 'The first attempt of each event is made ms milliseconds of sandbox time later than usual (advance the clock to release it when it is frozen).', params: [{ name: 'ms', description: 'delay in sandbox milliseconds', required: true }] },
  { name: 'WEBHOOK_RECEIVER_TIMEOUT', endpoints: EVENT_ENDPOINTS, timing: 'delivery', effect: 'The first attempt of each event is sent but recorded as timed out, whatever the receiver answered; the retry policy then sends it again after the first backoff.' },
  { name: 'WEBHOOK_OUT_OF_ORDER', endpoints: EVENT_ENDPOINTS, timing: 'delivery', effect: 'Where an operation produces two events for one transaction, the final one is delivered before the intermediate one: an event carrying this scenario is held until the next event of the same transactionId is emitted, which is sent first, the held one following once that first attempt has ended; if no later event comes within ms of sandbox time (default 2000), the held event is sent alone.', params: [{ name: 'ms', description: 'how long an event waits for the later one, sandbox milliseconds (default 2000)', required: false }] },
  { name: 'WEBHOOK_BAD_SIGNATURE', endpoints: EVENT_ENDPOINTS, timing: 'delivery', effect: 'Each event is sent once with an X-Sandbox-Signature made with another secret, as a forger would send it: a receiver that verifies signatures refuses it (4xx). A refusal is not retried; the delivery ends failed. POST /__sandbox/report/probe sends one on demand.' },
])

export const DELIVERY_FAULTS: ReadonlySet<string> = new Set(deliveryScenarios.map(s => s.name))
