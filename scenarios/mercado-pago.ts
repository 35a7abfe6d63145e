import { scenarioDefinitions } from './types.js'

/**
 * Scenarios of Mercado Pago's payments API alone (docs/mercado-pago.md, Scenarios): behaviours its docs
 * give the shape of that no other dialect has, taken only by its operations.
 */
export const mercadoPagoScenarios = scenarioDefinitions([
  {
    name: 'POLICY_AGENT_UNAUTHORIZED',
    endpoints: ['cash-in', 'refund-in'],
    dialects: ['mercado-pago'],
    timing: 'sync',
    effect: 'Mercado Pago\'s PolicyAgent refuses the request (an account that lost the permission, a refund of a test account): 403 {"message":"At least one policy returned UNAUTHORIZED.","code":"PA_UNAUTHORIZED_RESULT_FROM_POLICIES","status":403,"blocked_by":"PolicyAgent"}; no payment or refund is made, nothing moves and nothing is notified.',
  },
])
