/**
 * A scenario is data plus an effect (docs/scenarios.md): a name, the endpoints it applies to,
 * when it takes effect, and what it does, in one sentence that docs/scenarios.md and
 * `GET /__sandbox/scenarios` both print. The effect itself lives in the machinery it bends
 * (ledger, settlement, delivery), which asks the resolved scenarios what to do.
 */
export const ENDPOINTS = [
  'cash-out', 'cash-out-qrcode', 'dict-pix',
  'cash-in', 'cob',
  'refund-in', 'devolucao',
  'med-list',
  // gateway operations that no business scenario bends, named so transport faults can be armed for them
  'token', 'balance', 'balances', 'webhook-config', 'cob-query', 'cob-cancel', 'devolucao-query', 'pix-query',
  // API Pix's operations that no business scenario bends
  'loc', 'rec-query', 'rec-revise',
  // control-plane operations that produce events
  'pix-pay', 'pix-incoming', 'med-open', 'med-transition', 'webhook-test', 'refund-received',
  // Pix Automático: a recurrence of API Pix (POST /rec), whose scenarios bend the payer's side
  'rec',
  // API Pix's recurring charges: their creation and a retry decide how their attempts' debits go
  'cobr', 'cobr-retry', 'cobr-query',
] as const
export type Endpoint = typeof ENDPOINTS[number]

/** Endpoints whose requests produce webhook events, where the delivery faults apply. */
export const EVENT_ENDPOINTS: readonly Endpoint[] = [
  'cash-out', 'cash-out-qrcode', 'dict-pix', 'cash-in', 'cob', 'refund-in', 'devolucao',
  'pix-pay', 'pix-incoming', 'med-open', 'med-transition', 'webhook-test', 'refund-received',
  'rec', 'cobr', 'cobr-retry',
]

/** Every operation of the gateway's two families (not the control plane): where transport faults apply. */
export const GATEWAY_ENDPOINTS: readonly Endpoint[] = [
  'token', 'balance', 'balances', 'cash-out', 'cash-out-qrcode', 'dict-pix', 'cash-in', 'cob', 'cob-query', 'cob-cancel',
  'refund-in', 'devolucao', 'devolucao-query', 'pix-query', 'med-list', 'webhook-config', 'loc',
  'rec', 'rec-query', 'rec-revise', 'cobr', 'cobr-retry', 'cobr-query',
]

export interface ScenarioParam {
  name: string
  description: string
  required: boolean
  /** An integer within these bounds (the resolver refuses anything else with a 400). */
  integer?: { min: number, max: number }
  /** One of these words. */
  oneOf?: readonly string[]
}

export interface ScenarioDefinition<N extends string = string> {
  name: N
  endpoints: readonly Endpoint[]
  /**
   * sync: the request itself answers differently; async: settlement or a later event changes; delivery:
   * webhook delivery is bent; transport: the connection misbehaves (a delay, no answer, a reset, a 429 or 503).
   */
  timing: 'sync' | 'async' | 'delivery' | 'transport'
  effect: string
  params?: readonly ScenarioParam[]
  /**
   * Only the operations of these dialects take it (a behaviour of one provider's API: Mercado Pago's
   * PolicyAgent); every dialect's operations at its endpoints when absent.
   */
  dialects?: readonly string[]
}

/**
 * Whose operation a request is, as the scenarios see it: a dialect's name; null for one of no dialect
 * (the control plane); undefined for any (what a scenario may ever apply to: arming, the docs).
 */
export type ScenarioCaller = string | null | undefined

/**
 * A family's entries of the catalogue, their names kept as the literals they are, so that the union of
 * every name (`ScenarioName`, scenarios/catalogue.ts) is made of them.
 */
export const scenarioDefinitions = <N extends string>(definitions: Array<ScenarioDefinition<N>>): Array<ScenarioDefinition<N>> => definitions

/** A scenario resolved for one request, with its parameters (`NAME;ms=5000` gives { ms: '5000' }). */
export interface AppliedScenario {
  name: string
  params: Record<string, string>
}
