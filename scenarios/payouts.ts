import type { ScenarioDefinition } from './types.js'

/** Scenarios of the pay-out endpoints (cash-out, cash-out by QR Code, directory transfer). Filled by the pay-outs capability. */
export const payoutScenarios: ScenarioDefinition[] = []
