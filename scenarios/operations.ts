import { catalogue, scenariosFor } from './catalogue.js'
import type { Endpoint, ScenarioDefinition } from './types.js'

/**
 * Where the scenarios of the dialects' operations apply: the OpenAPI tags of the dialects' operations,
 * and the scenario endpoint of each operation by its operationId (null: it takes none), each dialect's
 * rows its own (server/dialects/). The transport faults (server/faults.ts) bend every such operation,
 * and the statuses they add are declared in its answers (server/schemas/declared.ts).
 */
export interface ScenarioEndpoints {
  readonly tags: ReadonlySet<string>
  readonly endpoints: Readonly<Record<string, Endpoint | null>>
}

/** The scenario endpoint of a dialect's route (its schema's tags and operationId), or null for the control plane and the pages. */
export function endpointOf (route: { schema?: unknown, url: string }, table: ScenarioEndpoints): Endpoint | null {
  const schema = route.schema as { tags?: string[], operationId?: string, hide?: boolean } | undefined
  if (!schema || schema.hide || !schema.tags?.some(t => table.tags.has(t))) return null
  const endpoint = schema.operationId === undefined ? undefined : table.endpoints[schema.operationId]
  // A new route of a dialect must say where its faults apply, or it would silently escape them.
  if (endpoint === undefined) throw new Error(`route ${route.url} (${schema.operationId ?? 'no operationId'}) has no scenario endpoint in its dialect's scenarioEndpoints`)
  return endpoint
}

/** An operation of the OpenAPI document: its method, its path as a reader writes it, its operationId. */
export interface Operation { method: string, path: string, operationId: string }

/**
 * docs/api-pix.md's table of where `X-Sandbox-Scenario` applies on API Pix, from its dialect's table and
 * the catalogue (a test fails when the page drifts): the operations of each scenario endpoint, in the
 * order they come, and the scenarios of that endpoint, the delivery and transport faults by family.
 */
export function scenarioTableMarkdown (operations: readonly Operation[], endpoints: Readonly<Record<string, Endpoint | null>>): string {
  const groups = new Map<Endpoint | null, string[]>()
  for (const op of operations) {
    const endpoint = Object.hasOwn(endpoints, op.operationId) ? endpoints[op.operationId] : undefined
    if (endpoint === undefined) throw new Error(`${op.operationId} has no scenario endpoint in its dialect's scenarioEndpoints`)
    groups.set(endpoint, [...groups.get(endpoint) ?? [], `\`${op.method} ${op.path}\``])
  }
  // A family is named as one when each of its scenarios applies.
  const every = (timing: ScenarioDefinition['timing']): number => new Set(catalogue.filter(s => s.timing === timing).map(s => s.name)).size
  const rows = [...groups].map(([endpoint, ops]) => {
    if (endpoint === null) return `| ${ops.join(', ')} | none | none |`
    const applied = scenariosFor(endpoint)
    const family = (timing: ScenarioDefinition['timing'], name: string): string[] => {
      const of = applied.filter(s => s.timing === timing)
      return of.length === 0 ? [] : of.length === every(timing) ? [name] : of.map(s => `\`${s.name}\``)
    }
    const named = applied.filter(s => s.timing !== 'delivery' && s.timing !== 'transport').map(s => `\`${s.name}\``)
    return `| ${ops.join(', ')} | \`${endpoint}\` | ${[...named, ...family('delivery', 'the delivery faults'), ...family('transport', 'the transport faults')].join(', ')} |`
  })
  return ['| Operations | Endpoint | Scenarios |', '|---|---|---|', ...rows].join('\n')
}
