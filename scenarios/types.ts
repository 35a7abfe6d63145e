/**
 * A scenario is data plus an effect (DESIGN.md section 6): a name, the endpoints it applies to,
 * when it takes effect, and what it does, in one sentence that the README and
 * `GET /__sandbox/scenarios` both print. The effect itself lives in the machinery it bends
 * (ledger, settlement, delivery), which asks the resolved scenarios what to do.
 */
export const ENDPOINTS = [
  'cash-out', 'cash-out-qrcode', 'dict-pix',
  'cash-in', 'cob',
  'refund-in', 'devolucao',
  'med-list',
  // control-plane operations that produce events
  'pix-pay', 'pix-incoming', 'med-open', 'med-transition', 'webhook-test', 'refund-received',
] as const
export type Endpoint = typeof ENDPOINTS[number]

/** Endpoints whose requests produce webhook events, where the delivery faults apply. */
export const EVENT_ENDPOINTS: readonly Endpoint[] = [
  'cash-out', 'cash-out-qrcode', 'dict-pix', 'cash-in', 'cob', 'refund-in', 'devolucao',
  'pix-pay', 'pix-incoming', 'med-open', 'med-transition', 'webhook-test', 'refund-received',
]

export interface ScenarioParam {
  name: string
  description: string
  required: boolean
}

export interface ScenarioDefinition {
  name: string
  endpoints: readonly Endpoint[]
  /** sync: the request itself answers differently; async: settlement or a later event changes; delivery: webhook delivery is bent. */
  timing: 'sync' | 'async' | 'delivery'
  effect: string
  params?: readonly ScenarioParam[]
}

/** A scenario resolved for one request, with its parameters (`NAME;ms=5000` gives { ms: '5000' }). */
export interface AppliedScenario {
  name: string
  params: Record<string, string>
}
