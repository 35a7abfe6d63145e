import { ENDPOINTS } from '../../../scenarios/types.js'
import { Instant, Int, Id, Text, Nullable, Open, OneOf } from './schema.js'

/** Scenarios armed per account, owned by ScenarioService. */

/** A scenario armed for an account's next requests (for clients that cannot add headers). */
export const ArmedScenarioSchema = Open({
  id: Id,
  accountId: Id,
  scenario: Text,
  endpoint: Nullable(OneOf(ENDPOINTS)),
  /** Requests left before it disarms itself; null means until disarmed. */
  remaining: Nullable(Int({ minimum: 0 })),
  createdAt: Instant,
})
