import { Refusal } from '../errors/refusal.js'
import type { Clock } from '../engine/clock.js'
import type { Store } from '../store/store.js'
import { didYouMean, parseScenarioHeader, ScenarioError } from '../../scenarios/resolver.js'
import type { ArmedScenario } from '../store/state.js'
import { catalogue, scenarioNamed } from '../../scenarios/catalogue.js'
import { closest } from '../domain/names.js'
import type { AppliedScenario, Endpoint, ScenarioCaller } from '../../scenarios/types.js'

/**
 * What most requests apply: one shared, frozen empty list rather than a new one kept on every record
 * (a frozen array also makes sure nothing appends to a list that is not its own).
 */
const NONE = Object.freeze([]) as unknown as AppliedScenario[]

/**
 * Resolves the scenarios of a request and keeps the ones armed per account (state collection
 * `armedScenarios`).
 */
export class ScenarioService {
  constructor (private readonly store: Store, private readonly clock: Clock) {}

  /**
   * The scenarios a request applies: those its X-Sandbox-Scenario header names, else those armed for its
   * account and endpoint (used up by this request); an unknown name is a 400 listing the valid ones.
   * `accountId` null: the account is not known (a token request for an unknown client), only the header counts.
   * The edge resolves each request once and echoes what applied (applied-scenarios.ts).
   */
  resolve (header: string | undefined, endpoint: Endpoint, accountId: number | null, caller?: ScenarioCaller): AppliedScenario[] {
    if (header !== undefined && header.trim() !== '') return this.parseHeader(header, endpoint, endpoint, caller)
    return accountId === null ? NONE : this.takeArmed(accountId, endpoint, caller)
  }

  /**
   * The scenarios a header names for an endpoint; null is an operation that takes none (a read, the
   * token), where every name is unknown. Throws the 400 UNKNOWN_SCENARIO listing the valid names (and
   * the closest one), or INVALID_SCENARIO_PARAMETER for a known scenario's parameter.
   */
  parseHeader (header: string, endpoint: Endpoint | null, operation: string = endpoint ?? '', caller?: ScenarioCaller): AppliedScenario[] {
    try {
      if (endpoint === null) {
        const name = header.split(',')[0].split(';')[0].trim()
        throw new ScenarioError(`Cenário desconhecido para ${operation}: ${name}`, [], `Unknown scenario for ${operation}: ${name}`)
      }
      return parseScenarioHeader(header, endpoint, caller)
    } catch (err) {
      if (!(err instanceof ScenarioError)) throw err
      if (err.problem === 'parameter') throw new Refusal('INVALID_SCENARIO_PARAMETER', err.reason, { details: { endpoint: operation }, en: err.english })
      // A code of its own, so in the extended shape it is a business error (code and errorCode).
      throw new Refusal('UNKNOWN_SCENARIO', `${err.reason}. Cenários válidos para ${operation}: ${err.valid.join(', ') || 'nenhum'}`, {
        details: { endpoint: operation, validScenarios: err.valid, ...(err.suggestion !== undefined && { didYouMean: err.suggestion }) },
        en: `${err.english}. Valid scenarios for ${operation}: ${err.valid.join(', ') || 'none'}`,
      })
    }
  }

  private takeArmed (accountId: number, endpoint: Endpoint, caller: ScenarioCaller): AppliedScenario[] {
    const armed = this.store.data.armedScenarios
    for (const a of Object.values(armed)) {
      if (a.accountId !== accountId) continue
      if (a.endpoint !== null && a.endpoint !== endpoint) continue
      let applied: AppliedScenario[]
      try {
        applied = parseScenarioHeader(a.scenario, endpoint, caller)
      } catch {
        continue // armed for other endpoints (or another dialect's operations) only
      }
      if (a.remaining !== null) {
        // Used up by this request whatever happens next: an armed scenario counts requests, not successes.
        this.store.transact(() => {
          if (a.remaining! <= 1) this.store.remove('armedScenarios', a.id)
          else this.store.patch('armedScenarios', a.id, draft => { draft.remaining = a.remaining! - 1 })
        })
      }
      return applied
    }
    return NONE
  }

  /** Arms a scenario (header syntax, e.g. `SETTLEMENT_DELAY;ms=5000`) for an account's next requests. */
  arm (input: { accountId: number, scenario: string, endpoint?: Endpoint, times?: number }): ArmedScenario {
    const names = input.scenario.split(',').map(p => p.split(';')[0].trim().toUpperCase()).filter(Boolean)
    if (names.length === 0) throw new Refusal('UNKNOWN_SCENARIO', 'Name a scenario')
    for (const name of names) {
      const def = scenarioNamed(name)
      if (!def) {
        const meant = closest(name, catalogue.map(s => s.name))
        throw new Refusal('UNKNOWN_SCENARIO', `Unknown scenario: ${name}${didYouMean(meant).en}`, meant === undefined ? {} : { details: { didYouMean: meant } })
      }
      if (input.endpoint && !def.endpoints.includes(input.endpoint)) {
        throw new Refusal('UNKNOWN_SCENARIO', `Scenario ${name} does not apply to ${input.endpoint}; it applies to ${def.endpoints.join(', ')}`)
      }
    }
    // Validates parameters now rather than on the request it will bend.
    const endpoint = input.endpoint ?? scenarioNamed(names[0])!.endpoints[0]
    try {
      parseScenarioHeader(input.scenario, endpoint)
    } catch (err) {
      if (err instanceof ScenarioError) throw new Refusal(err.problem === 'parameter' ? 'INVALID_SCENARIO_PARAMETER' : 'UNKNOWN_SCENARIO', err.english)
      throw err
    }
    const armed: ArmedScenario = {
      id: 0,
      accountId: input.accountId,
      scenario: input.scenario,
      endpoint: input.endpoint ?? null,
      remaining: input.times ?? null,
      createdAt: new Date(this.clock.now()).toISOString(),
    }
    return this.store.transact(() => this.store.add('armedScenarios', { ...armed, id: this.store.nextSeq('armedScenario') }))
  }

  armed (accountId?: number): ArmedScenario[] {
    return Object.values(this.store.data.armedScenarios).filter(a => accountId === undefined || a.accountId === accountId)
  }

  disarm (id: number): boolean {
    return this.store.transact(() => this.store.remove('armedScenarios', id))
  }
}
