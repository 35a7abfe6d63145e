import { EVENT_ENDPOINTS, type ScenarioDefinition } from './types.js'

/** Delivery faults: usable on any request that produces webhook events. */
export const deliveryScenarios: ScenarioDefinition[] = [
  { name: 'WEBHOOK_DROP', endpoints: EVENT_ENDPOINTS, timing: 'delivery', effect: 'The events of this operation are never delivered; the delivery log shows them as dropped.' },
  { name: 'WEBHOOK_DUPLICATE', endpoints: EVENT_ENDPOINTS, timing: 'delivery', effect: 'Each event is delivered twice with the same delivery id, as a retry after a lost acknowledgement would.' },
  { name: 'WEBHOOK_DELAY', endpoints: EVENT_ENDPOINTS, timing: 'delivery', effect: 'Each event is delivered ms milliseconds of sandbox time later than usual.', params: [{ name: 'ms', description: 'delay in sandbox milliseconds', required: true }] },
  { name: 'WEBHOOK_RECEIVER_TIMEOUT', endpoints: EVENT_ENDPOINTS, timing: 'delivery', effect: 'The first attempt of each event is treated as timed out (whatever the receiver answered), then retried by the retry policy.' },
  { name: 'WEBHOOK_OUT_OF_ORDER', endpoints: EVENT_ENDPOINTS, timing: 'delivery', effect: 'Where an operation produces two events, the final one is delivered before the intermediate one.' },
]
