// Money is integer cents everywhere inside the sandbox. Decimal numbers (standard family JSON) and
// "10.00" strings (central-bank family) exist only at the edge, and are converted here, exactly:
// a JSON number is read through its shortest decimal representation, never multiplied as a float
// (0.29 * 100 is 28.999999999999996, yet 0.29 is a valid amount).

/** 999,999,999,999.99: far above any limit, well below 2^53 cents, so cents stay exact integers. */
export const MAX_CENTS = 99_999_999_999_999

/**
 * How far the running totals of an account may go (`domain/ledger.ts`). Money keeps arriving (a
 * received PIX, a credit) while other money leaves, so totals outgrow any balance; bounded by 2^51
 * cents each, the invariant's sum of opening, adjustments and settledIn stays below 2^53, where every
 * cent is still an exact double.
 */
export const TOTAL_LIMIT_CENTS = 2 ** 51

export type AmountError = 'NOT_A_NUMBER' | 'TOO_SMALL' | 'TOO_MANY_DECIMALS' | 'TOO_LARGE'
export type DecimalStringError = 'NOT_A_DECIMAL_STRING' | 'TOO_SMALL' | 'TOO_LARGE'

export type ParsedAmount = { ok: true, cents: number } | { ok: false, reason: AmountError }
export type ParsedDecimalString = { ok: true, cents: number } | { ok: false, reason: DecimalStringError }

/**
 * The exact decimal value a double prints as: |value| = digits * 10^-scale.
 * String(n) is the shortest representation that reads back as n (ECMAScript Number::toString),
 * which is what the client wrote in its JSON for any amount it could mean.
 */
function decimalOf (n: number): { digits: string, scale: number } {
  const m = /^-?(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(n))
  if (m === null) throw new RangeError(`not a finite number: ${n}`)
  const [, int, frac = '', exp = '0'] = m
  const digits = (int + frac).replace(/^0+(?=\d)/, '')
  return { digits, scale: frac.length - Number(exp) }
}

/**
 * An amount of the standard family (`value`, `refundValue`, `payment.amount`...): a JSON number,
 * at least 0.01, at most 2 decimals, at most MAX_CENTS.
 */
export function parseAmount (value: unknown): ParsedAmount {
  // 1E400 in JSON parses to Infinity: no amount a double can hold, so not a finite number, not "too small".
  if (typeof value !== 'number' || !Number.isFinite(value)) return { ok: false, reason: 'NOT_A_NUMBER' }
  if (value <= 0) return { ok: false, reason: 'TOO_SMALL' } // also -0
  // Checked on the float first so 1e308 does not become a 310-digit string of cents.
  if (value > MAX_CENTS / 100) return { ok: false, reason: 'TOO_LARGE' }
  const { digits, scale } = decimalOf(value)
  if (scale > 2) return { ok: false, reason: 'TOO_MANY_DECIMALS' }
  return { ok: true, cents: Number(digits + '0'.repeat(2 - scale)) }
}

/** Why `field` was refused, in the gateway's Portuguese, or in the control plane's English. */
export function amountMessage (field: string, reason: AmountError, language: 'pt' | 'en' = 'pt'): string {
  if (language === 'en') {
    switch (reason) {
      case 'TOO_SMALL': return `${field} must be at least 0.01`
      case 'TOO_MANY_DECIMALS': return `${field} must have at most 2 decimal places`
      case 'TOO_LARGE': return `${field} exceeds the maximum amount (${centsToString(MAX_CENTS)})`
      case 'NOT_A_NUMBER': return `${field} must be a finite number`
    }
  }
  switch (reason) {
    case 'TOO_SMALL': return `${field} deve ser no mínimo 0.01`
    case 'TOO_MANY_DECIMALS': return `${field} deve ter no máximo 2 casas decimais`
    case 'TOO_LARGE': return `${field} excede o valor máximo (${centsToString(MAX_CENTS)})`
    case 'NOT_A_NUMBER': return `${field} deve ser um número finito`
  }
}

/**
 * A decimal string. `exactly-2` is the central-bank format (`valor.original`, devolucao `valor`):
 * /^\d{1,12}\.\d{2}$/ and nothing else. `up-to-2` is the EMV amount (tag 54), where "10", "10.5"
 * and "10.50" are all written by real issuers.
 */
export function parseDecimalString (s: string, places: 'exactly-2' | 'up-to-2' = 'exactly-2'): ParsedDecimalString {
  const pattern = places === 'exactly-2' ? /^(\d{1,12})\.(\d{2})$/ : /^(\d+)(?:\.(\d{1,2}))?$/
  const m = pattern.exec(s)
  if (m === null) return { ok: false, reason: 'NOT_A_DECIMAL_STRING' }
  const int = m[1].replace(/^0+(?=\d)/, '')
  if (int.length > 12) return { ok: false, reason: 'TOO_LARGE' }
  const cents = Number(int) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
  if (cents === 0) return { ok: false, reason: 'TOO_SMALL' }
  return { ok: true, cents }
}

/** Cents as a JSON number: 1050 -> 10.5. Exact, because cents / 100 is the double nearest the decimal. */
export function centsToNumber (cents: number): number {
  assertCents(cents)
  return cents / 100
}

/** Cents as a 2-decimal string: 1050 -> "10.50", -5 -> "-0.05". */
export function centsToString (cents: number): string {
  assertCents(cents)
  const abs = Math.abs(cents)
  const int = Math.floor(abs / 100)
  const frac = String(abs % 100).padStart(2, '0')
  return `${cents < 0 ? '-' : ''}${int}.${frac}`
}

/**
 * `percent`% of a gross amount in cents, rounded half-up to the cent: a PERCENTAGE split of 33.33
 * on 100.00 is 33.33, on 0.03 is 0.01. Computed on the decimal digits of `percent` with BigInt, so
 * no float product can land on the wrong side of a half cent.
 */
export function percentOf (cents: number, percent: number): number {
  assertCents(cents)
  if (cents < 0) throw new RangeError(`percentOf: gross amount must not be negative, got ${cents}`)
  if (percent < 0) throw new RangeError(`percentOf: percent must not be negative, got ${percent}`)
  const { digits, scale } = decimalOf(percent) // throws RangeError on NaN and Infinity
  const numerator = BigInt(cents) * BigInt(digits) * 10n ** BigInt(Math.max(0, -scale))
  const denominator = 100n * 10n ** BigInt(Math.max(0, scale))
  return Number(divideHalfUp(numerator, denominator))
}

/**
 * numerator / denominator rounded half-up to an integer (2.5 -> 3), both non-negative: the one rounding
 * of the sandbox's percentages of money, done on exact integers so no float lands on the wrong side of a half.
 */
export function divideHalfUp (numerator: bigint, denominator: bigint): bigint {
  if (numerator < 0n || denominator <= 0n) throw new RangeError(`divideHalfUp: ${numerator} / ${denominator}`)
  return (2n * numerator + denominator) / (2n * denominator)
}

function assertCents (cents: number): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a safe integer, got ${cents}`)
}

/**
 * A control-plane amount in BRL (an account's opening balance, fee, limits, a balance change) in
 * cents: read exactly from its decimal representation like parseAmount, zero and negative values
 * allowed, a third decimal rounded half away from zero (10.005 is 1001 cents, where a float product
 * would give 1000).
 */
export function brlToCents (value: number): number {
  const { digits, scale } = decimalOf(Math.abs(value))
  const sign = value < 0 ? -1 : 1
  if (scale <= 2) return sign * Number(digits + '0'.repeat(2 - scale))
  const dropped = scale - 2
  const padded = digits.padStart(dropped + 1, '0')
  const kept = Number(padded.slice(0, padded.length - dropped))
  const roundUp = padded.charCodeAt(padded.length - dropped) >= 53 // '5'
  return sign * (kept + (roundUp ? 1 : 0)) || 0
}
