import type { ScenarioDefinition } from './types.js'

/** Scenarios of the pay-in endpoints (cash-in, cob, refunds, MED). Filled by the pay-ins capability. */
export const payinScenarios: ScenarioDefinition[] = []
