import type { Config } from './config.js'
import type { Clock } from './engine/clock.js'
import type { Scheduler } from './engine/scheduler.js'
import type { SeededRng } from './domain/ids.js'
import type { Fixtures } from './fixtures.js'
import type { Store } from './store/store.js'
import type { TokenService } from './auth/tokens.js'
import type { AccountService } from './services/accounts.js'
import type { RequestJournal } from './journal/journal.js'
import type { Account } from './store/state.js'
import type { ScenarioService } from './services/scenarios.js'
import type { WebhookService } from './webhooks/service.js'
import type { PayoutService } from './services/payouts.js'
import type { ChargeService } from './services/charges.js'
import type { RefundService } from './services/refunds.js'
import type { MedService } from './services/med.js'

/**
 * Everything a route may reach, built once per app by buildApp and hung on the instance as
 * `app.sandbox`. Tests build their own with a memory store, a frozen clock and a fixed seed.
 */
export interface Sandbox {
  config: Config
  version: string
  seed: string
  clock: Clock
  scheduler: Scheduler
  rng: SeededRng
  store: Store
  fixtures: Fixtures
  tokens: TokenService
  accounts: AccountService
  journal: RequestJournal
  scenarios: ScenarioService
  webhooks: WebhookService
  payouts: PayoutService
  charges: ChargeService
  refunds: RefundService
  med: MedService
  /** Hooks run by a full reset, after the store is emptied (each capability clears what it keeps in memory). */
  onReset: Array<() => void>
  /** Hooks run after state is loaded or imported (each capability reschedules its due jobs). */
  onLoad: Array<() => void>
  /** Puts the clock back where the settings start it (--clock-start or real time, --clock): a full reset does. */
  resetClock: () => void
  ready: boolean
}

declare module 'fastify' {
  interface FastifyInstance {
    sandbox: Sandbox
  }
  interface FastifyRequest {
    /** The account of the bearer token, set by the authenticate hook. */
    account?: Account
  }
  interface FastifyContextConfig {
    /** Routes that need `Authorization: Bearer`. */
    auth?: boolean
  }
}
