import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Rng } from '../domain/ids.js'

/**
 * A cryptographic source for credentials (clientId, clientSecret), in the shape the domain's random
 * helpers take. 48 bits per draw from the operating system's CSPRNG: `randomAlnum` picks one of 62
 * characters from each, so the bias is far below anything measurable.
 */
export const secretRng: Rng = {
  next: () => randomBytes(6).readUIntBE(0, 6) / 2 ** 48,
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest()

/**
 * Whether a secret a client sent is the one the sandbox holds (a clientSecret, the admin token), in
 * a time that tells nothing of where they differ: `===` stops at the first differing character. Both
 * sides are hashed first, so `timingSafeEqual` always compares two 32-byte digests and the length of
 * the held secret does not show either.
 */
export function sameSecret (given: string, held: string): boolean {
  return timingSafeEqual(digest(given), digest(held))
}
