import { cobrScenarios } from './cobr.js'
import { deliveryScenarios } from './delivery.js'
import { payinScenarios } from './payins.js'
import { payoutScenarios } from './payouts.js'
import { transportScenarios } from './transport.js'
import { mercadoPagoScenarios } from './mercado-pago.js'
import { recScenarios } from './rec.js'
import { GATEWAY_ENDPOINTS, type Endpoint, type ScenarioCaller, type ScenarioDefinition, type ScenarioParam } from './types.js'

const definitions = [...payoutScenarios, ...payinScenarios, ...cobrScenarios, ...deliveryScenarios, ...transportScenarios, ...recScenarios, ...mercadoPagoScenarios]

/** The name of a scenario of the catalogue: what the machinery asks about (`hasScenario`), so a misspelt name does not compile. */
export type ScenarioName = typeof definitions[number]['name']

/** The one catalogue: what the resolver accepts, what GET /__sandbox/scenarios lists, what the table of docs/scenarios.md shows. */
export const catalogue: ReadonlyArray<ScenarioDefinition<ScenarioName>> = definitions

// One name may be defined by two families (INTERNAL_ERROR: QR Code pay-outs and the MED list); it then
// applies to the union of their endpoints instead of the last definition hiding the first.
const byName = new Map<string, ScenarioDefinition>()
for (const s of catalogue) {
  const seen = byName.get(s.name)
  byName.set(s.name, seen ? { ...seen, endpoints: [...seen.endpoints, ...s.endpoints], params: seen.params ?? s.params } : s)
}

export function scenarioNamed (name: string): ScenarioDefinition | undefined {
  return byName.get(name)
}

/** The scenarios of an endpoint, for a request of `caller` (a dialect's own only for that dialect's operations). */
export function scenariosFor (endpoint: Endpoint, caller?: ScenarioCaller): ScenarioDefinition[] {
  return catalogue.filter(s => s.endpoints.includes(endpoint) && (caller === undefined || s.dialects === undefined || (caller !== null && s.dialects.includes(caller))))
}

const placeholder = (p: ScenarioParam): string => p.oneOf?.length === 1 ? p.oneOf[0] : p.name === 'ms' ? 'N' : p.integer ? 'S' : 'N'

/** The scenario table of docs/scenarios.md, generated from the catalogue (a test fails when the page drifts). */
export function catalogueMarkdown (): string {
  const rows = catalogue.map(s => {
    const params = s.params?.length ? s.params.map(p => `\`${p.name}\`${p.required ? '' : ' (optional)'}: ${p.description}`).join('; ') : ''
    const name = s.params?.length ? `\`${s.name};${s.params.map(p => `${p.name}=${placeholder(p)}`).join(';')}\`` : `\`${s.name}\``
    const endpoints = (s.endpoints === GATEWAY_ENDPOINTS ? 'every gateway endpoint, the token included' : s.endpoints.join(', ')) + (s.dialects ? ` (the operations of ${s.dialects.join(', ')} only)` : '')
    return `| ${name} | ${endpoints} | ${s.timing} | ${s.effect}${params ? ` Parameters: ${params}.` : ''} |`
  })
  return ['| Scenario | Endpoints | Takes effect | Effect |', '|---|---|---|---|', ...rows].join('\n')
}
