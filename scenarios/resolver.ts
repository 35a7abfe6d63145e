import { closest } from '../server/domain/names.js'
import { catalogue, scenariosFor, type ScenarioName } from './catalogue.js'
import type { AppliedScenario, Endpoint, ScenarioCaller } from './types.js'

/**
 * Resolution order for a request (docs/scenarios.md): the X-Sandbox-Scenario header, then scenarios
 * armed for the account (for clients that cannot add headers), then the happy path. Like msw handlers:
 * narrow match, first wins, reset restores. Scenarios armed per account are records of the
 * store (`ArmedScenario` in server/store/state.ts), kept by the scenario service.
 */

/**
 * Why a header was refused, in the gateway's Portuguese and the control plane's English: a name it does
 * not know (with the closest valid one, when one is close), or a parameter of a scenario it does know.
 */
export class ScenarioError extends Error {
  constructor (readonly reason: string, readonly valid: string[], readonly english: string = reason, readonly problem: 'name' | 'parameter' = 'name', readonly suggestion?: string) {
    super(reason)
  }
}

/** A slip of a known name, in the two languages: ` (did you mean INSUFFICIENT_FUNDS?)`, or nothing. */
export function didYouMean (meant: string | undefined): { pt: string, en: string } {
  return meant === undefined ? { pt: '', en: '' } : { pt: ` (quis dizer ${meant}?)`, en: ` (did you mean ${meant}?)` }
}

/** Parses `NAME;ms=5000, OTHER` into applied scenarios, checking each against the endpoint. */
export function parseScenarioHeader (header: string, endpoint: Endpoint, caller?: ScenarioCaller): AppliedScenario[] {
  const valid = scenariosFor(endpoint, caller).map(s => s.name)
  const applied: AppliedScenario[] = []
  for (const part of header.split(',').map(p => p.trim()).filter(Boolean)) {
    const [rawName, ...rawParams] = part.split(';').map(p => p.trim())
    const name = rawName.toUpperCase()
    // By name and endpoint: two families may define the same name for their own endpoints (INTERNAL_ERROR).
    const def = scenariosFor(endpoint, caller).find(s => s.name === name)
    if (!def) {
      const meant = closest(name, valid)
      const hint = didYouMean(meant)
      throw new ScenarioError(`Cenário desconhecido para ${endpoint}: ${rawName}${hint.pt}`, valid, `Unknown scenario for ${endpoint}: ${rawName}${hint.en}`, 'name', meant)
    }
    const wrong = (pt: string, en: string): ScenarioError => new ScenarioError(pt, valid, en, 'parameter')
    const params: Record<string, string> = {}
    for (const p of rawParams.filter(Boolean)) {
      const eq = p.indexOf('=')
      const key = eq === -1 ? p : p.slice(0, eq)
      if (!def.params?.some(d => d.name === key)) {
        const takes = def.params?.map(d => d.name).join(', ')
        throw wrong(`Parâmetro desconhecido no cenário ${name}: ${key} (${takes ? `aceita ${takes}` : 'não aceita parâmetros'})`, `Unknown parameter of scenario ${name}: ${key} (${takes ? `it takes ${takes}` : 'it takes none'})`)
      }
      params[key] = eq === -1 ? '' : p.slice(eq + 1)
    }
    for (const d of def.params ?? []) {
      if (d.required && !(d.name in params)) throw wrong(`O cenário ${name} exige o parâmetro ${d.name} (ex.: ${name};${d.name}=1000)`, `Scenario ${name} needs parameter ${d.name} (e.g. ${name};${d.name}=1000)`)
    }
    for (const [k, v] of Object.entries(params)) {
      const d = def.params!.find(p => p.name === k)!
      if (d.integer) {
        const n = /^\d{1,10}$/.test(v) ? Number(v) : NaN
        if (!(n >= d.integer.min && n <= d.integer.max)) throw wrong(`O parâmetro ${k} do cenário ${name} deve ser um inteiro de ${d.integer.min} a ${d.integer.max}`, `Parameter ${k} of scenario ${name} must be a whole number from ${d.integer.min} to ${d.integer.max}`)
      } else if (d.oneOf) {
        if (!d.oneOf.includes(v)) throw wrong(`O parâmetro ${k} do cenário ${name} aceita ${d.oneOf.join(', ')}`, `Parameter ${k} of scenario ${name} takes ${d.oneOf.join(', ')}`)
      } else if (k === 'ms' && !/^\d{1,10}$/.test(v)) {
        throw wrong(`O parâmetro ms do cenário ${name} deve ser um inteiro de milissegundos`, `Parameter ms of scenario ${name} must be a whole number of milliseconds`)
      }
    }
    applied.push({ name, params })
  }
  return applied
}

/** One applied scenario in header form, `NAME;key=value`: how a webhook delivery keeps the faults that bend it. */
export function formatScenario (applied: Readonly<AppliedScenario>): string {
  return [applied.name, ...Object.entries(applied.params).map(([k, v]) => `${k}=${v}`)].join(';')
}

/** Serialises applied scenarios back to header form, for X-Sandbox-Scenario-Applied. */
export function formatScenarios (applied: readonly AppliedScenario[]): string {
  return applied.map(formatScenario).join(',')
}

/** An applied scenario back from formatScenario's form; it was checked against the catalogue when it was applied. */
export function readScenario (formatted: string): AppliedScenario {
  const [name, ...params] = formatted.split(';')
  const applied: AppliedScenario = { name, params: {} }
  for (const p of params) {
    const eq = p.indexOf('=')
    applied.params[eq === -1 ? p : p.slice(0, eq)] = eq === -1 ? '' : p.slice(eq + 1)
  }
  return applied
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
