import { randomBytes } from 'node:crypto'
import type { Rng } from '../domain/ids.js'

/**
 * A cryptographic source for credentials (clientId, clientSecret), in the shape the domain's random
 * helpers take. 48 bits per draw from the operating system's CSPRNG: `randomAlnum` picks one of 62
 * characters from each, so the bias is far below anything measurable.
 */
export const secretRng: Rng = {
  next: () => randomBytes(6).readUIntBE(0, 6) / 2 ** 48,
}
