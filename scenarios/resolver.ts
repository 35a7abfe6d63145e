import { catalogue, scenariosFor, type ScenarioName } from './catalogue.js'
import type { AppliedScenario, Endpoint } from './types.js'

/**
 * Resolution order for a request (DESIGN.md section 6): the X-Sandbox-Scenario header, then scenarios
 * armed for the account (for clients that cannot add headers), then the happy path. Like msw handlers:
 * narrow match, first wins, reset restores. Scenarios armed per account are records of the
 * store (`ArmedScenario` in server/store/state.ts), kept by the scenario service.
 */

/** Why a header was refused, in the gateway's Portuguese and the control plane's English. */
export class ScenarioError extends Error {
  constructor (readonly reason: string, readonly valid: string[], readonly english: string = reason) {
    super(reason)
  }
}

/** Parses `NAME;ms=5000, OTHER` into applied scenarios, checking each against the endpoint. */
export function parseScenarioHeader (header: string, endpoint: Endpoint): AppliedScenario[] {
  const valid = scenariosFor(endpoint).map(s => s.name)
  const applied: AppliedScenario[] = []
  for (const part of header.split(',').map(p => p.trim()).filter(Boolean)) {
    const [rawName, ...rawParams] = part.split(';').map(p => p.trim())
    const name = rawName.toUpperCase()
    // By name and endpoint: two families may define the same name for their own endpoints (INTERNAL_ERROR).
    const def = scenariosFor(endpoint).find(s => s.name === name)
    if (!def) {
      throw new ScenarioError(`Cenário desconhecido para ${endpoint}: ${rawName}`, valid, `Unknown scenario for ${endpoint}: ${rawName}`)
    }
    const params: Record<string, string> = {}
    for (const p of rawParams.filter(Boolean)) {
      const eq = p.indexOf('=')
      const key = eq === -1 ? p : p.slice(0, eq)
      if (!def.params?.some(d => d.name === key)) throw new ScenarioError(`Parâmetro desconhecido no cenário ${name}: ${key}`, valid, `Unknown parameter of scenario ${name}: ${key}`)
      params[key] = eq === -1 ? '' : p.slice(eq + 1)
    }
    for (const d of def.params ?? []) {
      if (d.required && !(d.name in params)) throw new ScenarioError(`O cenário ${name} exige o parâmetro ${d.name} (ex.: ${name};${d.name}=1000)`, valid, `Scenario ${name} needs parameter ${d.name} (e.g. ${name};${d.name}=1000)`)
    }
    for (const [k, v] of Object.entries(params)) {
      const d = def.params!.find(p => p.name === k)!
      if (d.integer) {
        const n = /^\d{1,10}$/.test(v) ? Number(v) : NaN
        if (!(n >= d.integer.min && n <= d.integer.max)) throw new ScenarioError(`O parâmetro ${k} do cenário ${name} deve ser um inteiro de ${d.integer.min} a ${d.integer.max}`, valid, `Parameter ${k} of scenario ${name} must be a whole number from ${d.integer.min} to ${d.integer.max}`)
      } else if (d.oneOf) {
        if (!d.oneOf.includes(v)) throw new ScenarioError(`O parâmetro ${k} do cenário ${name} aceita ${d.oneOf.join(', ')}`, valid, `Parameter ${k} of scenario ${name} takes ${d.oneOf.join(', ')}`)
      } else if (k === 'ms' && !/^\d{1,10}$/.test(v)) {
        throw new ScenarioError(`O parâmetro ms do cenário ${name} deve ser um inteiro de milissegundos`, valid, `Parameter ms of scenario ${name} must be a whole number of milliseconds`)
      }
    }
    applied.push({ name, params })
  }
  return applied
}

/** Serialises applied scenarios back to header form, for X-Sandbox-Scenario-Applied and the store. */
export function formatScenarios (applied: readonly AppliedScenario[]): string {
  return applied.map(a => [a.name, ...Object.entries(a.params).map(([k, v]) => `${k}=${v}`)].join(';')).join(',')
}

export function hasScenario (applied: readonly AppliedScenario[] | undefined, name: ScenarioName): boolean {
  // A loop, not `some`: asked about a dozen times per pay-out, a closure each time was garbage.
  if (applied === undefined) return false
  for (let i = 0; i < applied.length; i++) if (applied[i].name === name) return true
  return false
}

/** A numeric parameter (`ms`) of an applied scenario, or the fallback. */
export function scenarioParam (applied: readonly AppliedScenario[] | undefined, name: ScenarioName, key: string, fallback: number): number {
  const v = applied?.find(a => a.name === name)?.params[key]
  return v === undefined || v === '' ? fallback : Number(v)
}

export { catalogue }
