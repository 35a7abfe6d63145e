/** Where the seeded random stream stands: four 32-bit words (a state file keeps it, store/state.ts). */
export type RngState = [number, number, number, number]
// Identifiers of the PIX world (endToEndId, rtrId, txid) and the seeded randomness behind them.
// Nothing here reads the wall clock or Math.random(): one seed must reproduce a whole run.

/** The only thing domain code needs from a random source: a uniform float in [0, 1). */
export interface Rng {
  next(): number
}

export interface SeededRng extends Rng {
  /** Uniform integer in [0, n). */
  int(n: number): number
  /** n characters of [0-9A-Za-z]. */
  alnum(n: number): string
  /** n lower-case hexadecimal characters. */
  hex(n: number): string
  /** A random (version 4, RFC 4122 variant) UUID, lower-case with hyphens. */
  uuid(): string
  /**
   * Where the stream stands (four 32-bit words), and putting it back there: a sandbox restarted on
   * its data file continues the stream instead of handing out again the ids it already gave.
   */
  state(): RngState
  restore(state: RngState): void
  /**
   * A stream of its own for `name`, drawn from the seed alone: the same for the same seed and name,
   * wherever this stream stands. What is invented from it (the holder of a key the directory does not
   * list) is a function of the seed and the name, so it needs no keeping and no reload changes it.
   */
  derive(name: string): Rng
}

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const HEX = '0123456789abcdef'

/**
 * A seeded RNG: sfc32 (passes PractRand, 128 bits of state) fed by cyrb128, so that any string
 * or number seed ("42", "ci-run-7") spreads over the whole state. A number seed and its decimal
 * string give the same stream, which keeps `--seed 42` and a seed read from JSON interchangeable.
 */
export function createRng (seed: number | string): SeededRng {
  let [a, b, c, d] = cyrb128(String(seed))
  const rng: Rng = {
    next () {
      a |= 0; b |= 0; c |= 0; d |= 0
      const t = (((a + b) | 0) + d) | 0
      d = (d + 1) | 0
      a = b ^ (b >>> 9)
      b = (c + (c << 3)) | 0
      c = (c << 21) | (c >>> 11)
      c = (c + t) | 0
      return (t >>> 0) / 4294967296
    }
  }
  // The first outputs of sfc32 still echo the seed; the reference implementation discards them.
  for (let i = 0; i < 15; i++) rng.next()
  return {
    next: rng.next,
    int: (n) => randomInt(rng, n),
    alnum: (n) => randomAlnum(rng, n),
    hex: (n) => randomHex(rng, n),
    uuid: () => randomUuid(rng),
    state: () => [a >>> 0, b >>> 0, c >>> 0, d >>> 0],
    restore: (s) => { [a, b, c, d] = s },
    derive: (name) => createRng(`${String(seed)}\u0000${name}`),
  }
}

function cyrb128 (str: string): [number, number, number, number] {
  let h1 = 1779033703; let h2 = 3144134277; let h3 = 1013904242; let h4 = 2773480762
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i)
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067)
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233)
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213)
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179)
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067)
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233)
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213)
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179)
  h1 ^= (h2 ^ h3 ^ h4); h2 ^= h1; h3 ^= h1; h4 ^= h1
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0]
}

/** Uniform integer in [0, n), for any Rng (the plain interface is what domain modules receive). */
export function randomInt (rng: Rng, n: number): number {
  if (!Number.isSafeInteger(n) || n <= 0) throw new RangeError(`randomInt: n must be a positive integer, got ${n}`)
  return Math.floor(rng.next() * n)
}

function randomFrom (rng: Rng, alphabet: string, n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`length must be a non-negative integer, got ${n}`)
  let out = ''
  for (let i = 0; i < n; i++) out += alphabet[randomInt(rng, alphabet.length)]
  return out
}

export function randomAlnum (rng: Rng, n: number): string {
  return randomFrom(rng, ALNUM, n)
}

export function randomHex (rng: Rng, n: number): string {
  return randomFrom(rng, HEX, n)
}

const ALNUM_CODES = Array.from(ALNUM, c => c.charCodeAt(0))
const HEX_CODES = Array.from(HEX, c => c.charCodeAt(0))
/**
 * The character codes of the identifier being built, reused by every call (they run one at a time): a
 * fresh array grown code by code was about 1 KB of garbage per cash-out for its three UUIDs.
 */
const uuidCodes: number[] = new Array<number>(36).fill(45)
const pixCodes: number[] = new Array<number>(32).fill(48)

/**
 * A version 4 UUID from four 32-bit draws (one draw per character was 4% of a cash-out's CPU time).
 * The version nibble (character 12) is forced to 4 and the variant bits (character 16) to 10xx.
 * Built from character codes so the result is one flat string: concatenation leaves a tree of
 * partial strings behind every id a record keeps (about 200 bytes of heap per id).
 */
export function randomUuid (rng: Rng): string {
  let at = 0
  for (let w = 0; w < 4; w++) {
    const bits = Math.floor(rng.next() * 4294967296)
    for (let shift = 28; shift >= 0; shift -= 4) {
      const i = w * 8 + (28 - shift) / 4
      let nibble = (bits >>> shift) & 15
      if (i === 12) nibble = 4
      else if (i === 16) nibble = 8 + (nibble & 3)
      // The hyphens stay where the buffer was filled with them: before digits 8, 12, 16 and 20.
      if (i === 8 || i === 12 || i === 16 || i === 20) at++
      uuidCodes[at++] = HEX_CODES[nibble]
    }
  }
  return String.fromCharCode.apply(null, uuidCodes)
}

/**
 * The form an idempotency key is compared and stored in. The key of `/dict/pix` is a UUID, and a UUID
 * is the same identifier in either case (RFC 9562: read case-insensitively, written in lower case):
 * `3F2B...` and `3f2b...` are one key, so they must name one transfer, never pay twice.
 */
export function canonicalIdempotencyKey (key: string): string {
  return key.toLowerCase()
}

const ISPB = /^[0-9A-Za-z]{8}$/

/**
 * End-to-end id of a PIX (BACEN format): `E` + payer institution ISPB (8) + `yyyyMMddHHmm` in UTC
 * + 11 alphanumerics, 32 characters in all.
 */
export function endToEndId (ispb: string, nowMs: number, rng: Rng): string {
  return pixIdentifier('E', ispb, nowMs, rng)
}

/** Id of a refund transaction (rtrId): the same layout as endToEndId with a leading `D`. */
export function returnId (ispb: string, nowMs: number, rng: Rng): string {
  return pixIdentifier('D', ispb, nowMs, rng)
}

function pixIdentifier (prefix: 'E' | 'D', ispb: string, nowMs: number, rng: Rng): string {
  if (!ISPB.test(ispb)) throw new RangeError(`ISPB must be 8 alphanumeric characters, got "${ispb}"`)
  const date = new Date(nowMs)
  const year = date.getUTCFullYear()
  if (!Number.isFinite(nowMs) || year < 0 || year > 9999) throw new RangeError(`timestamp out of range: ${nowMs}`)
  // Character codes, for one flat string (see randomUuid).
  const codes = pixCodes
  let at = 0
  codes[at++] = prefix.charCodeAt(0)
  for (let i = 0; i < 8; i++) codes[at++] = ispb.charCodeAt(i)
  const digits = (n: number, width: number): void => {
    for (let p = 10 ** (width - 1); p >= 1; p /= 10) codes[at++] = 48 + (Math.floor(n / p) % 10)
  }
  digits(year, 4); digits(date.getUTCMonth() + 1, 2); digits(date.getUTCDate(), 2)
  digits(date.getUTCHours(), 2); digits(date.getUTCMinutes(), 2)
  for (let i = 0; i < 11; i++) codes[at++] = ALNUM_CODES[randomInt(rng, ALNUM_CODES.length)]
  return String.fromCharCode.apply(null, codes)
}

/**
 * A transaction id for a charge: [a-zA-Z0-9]. 32 by default, inside the cob range (26 to 35);
 * a static BR Code carries at most 25, so its caller asks for fewer.
 */
export function txid (rng: Rng, length = 32): string {
  if (!Number.isSafeInteger(length) || length < 1 || length > 35) throw new RangeError(`txid length must be 1 to 35, got ${length}`)
  return randomAlnum(rng, length)
}

/** The txid of `PUT /cob/{txid}`: 26 to 35 alphanumerics. */
export function isValidTxid (s: string): boolean {
  return /^[a-zA-Z0-9]{26,35}$/.test(s)
}

/** An e2eid path parameter: exactly 32 alphanumerics (the spec checks no more than that). */
export function isValidEndToEndId (s: string): boolean {
  return /^[a-zA-Z0-9]{32}$/.test(s)
}

/** A UUID of version 4 as text, any case: what an idempotency key is (docs/gateway.md §4 endpoint 9). */
export const UUID_V4_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$'
