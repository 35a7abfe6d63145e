import t from 'tap'
import fc from 'fast-check'
import { brlToCents, centsToNumber, centsToString, divideHalfUp, MAX_CENTS, parseAmount, parseDecimalString, percentOf } from '../../server/domain/money.js'

t.test('parseAmount accepts amounts with at most 2 decimals, exactly', async t => {
  t.same(parseAmount(0.29), { ok: true, cents: 29 }, '0.29 although 0.29 * 100 is 28.999999999999996')
  t.same(parseAmount(0.01), { ok: true, cents: 1 })
  t.same(parseAmount(0.1), { ok: true, cents: 10 })
  t.same(parseAmount(10), { ok: true, cents: 1000 })
  t.same(parseAmount(10.5), { ok: true, cents: 1050 })
  t.same(parseAmount(66.66), { ok: true, cents: 6666 })
  t.same(parseAmount(1.15), { ok: true, cents: 115 }, '1.15 * 100 is 114.99999999999999')
  t.same(parseAmount(4.35), { ok: true, cents: 435 }, '4.35 * 100 is 434.99999999999994')
  t.same(parseAmount(999_999_999_999.99), { ok: true, cents: MAX_CENTS })
})

t.test('parseAmount rejects with a reason', async t => {
  t.same(parseAmount(1.005), { ok: false, reason: 'TOO_MANY_DECIMALS' })
  t.same(parseAmount(0.001), { ok: false, reason: 'TOO_MANY_DECIMALS' })
  t.same(parseAmount(1e-7), { ok: false, reason: 'TOO_MANY_DECIMALS' }, 'exponent form of a small number')
  t.same(parseAmount(0), { ok: false, reason: 'TOO_SMALL' })
  t.same(parseAmount(-0), { ok: false, reason: 'TOO_SMALL' })
  t.same(parseAmount(-1), { ok: false, reason: 'TOO_SMALL' })
  t.same(parseAmount(-0.001), { ok: false, reason: 'TOO_SMALL' })
  t.same(parseAmount(1e308), { ok: false, reason: 'TOO_LARGE' })
  t.same(parseAmount(1e21), { ok: false, reason: 'TOO_LARGE' }, 'exponent form of a large number')
  t.same(parseAmount(1_000_000_000_000), { ok: false, reason: 'TOO_LARGE' })
  for (const bad of [NaN, Infinity, -Infinity, '10.00', null, undefined, {}, [], true, 10n]) {
    t.same(parseAmount(bad), { ok: false, reason: 'NOT_A_NUMBER' }, `${String(bad)} is not a number`)
  }
})

t.test('parseAmount reads back every 2-decimal amount from its JSON text', async t => {
  fc.assert(fc.property(fc.integer({ min: 1, max: MAX_CENTS }), cents => {
    const json = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
    const parsed = parseAmount(JSON.parse(json))
    return parsed.ok && parsed.cents === cents
  }), { numRuns: 2000 })
})

t.test('parseAmount rejects every amount with a third decimal', async t => {
  fc.assert(fc.property(fc.integer({ min: 0, max: 999_999_999 }), fc.integer({ min: 1, max: 9 }), (mills, last) => {
    const json = `${Math.floor(mills / 100)}.${String(mills % 100).padStart(2, '0')}${last}`
    const parsed = parseAmount(JSON.parse(json))
    return !parsed.ok && parsed.reason === 'TOO_MANY_DECIMALS'
  }), { numRuns: 2000 })
})

t.test('parseDecimalString, central-bank form: exactly 2 places', async t => {
  t.same(parseDecimalString('10.00'), { ok: true, cents: 1000 })
  t.same(parseDecimalString('0.29'), { ok: true, cents: 29 })
  t.same(parseDecimalString('0.01'), { ok: true, cents: 1 })
  t.same(parseDecimalString('999999999999.99'), { ok: true, cents: MAX_CENTS })
  t.same(parseDecimalString('0.00'), { ok: false, reason: 'TOO_SMALL' })
  for (const bad of ['10', '10.0', '10.000', '.50', '10.', '-1.00', '+1.00', '1,00', ' 1.00', '1.00 ', '1e2', '1234567890123.00', '', 'abc']) {
    t.same(parseDecimalString(bad), { ok: false, reason: 'NOT_A_DECIMAL_STRING' }, JSON.stringify(bad))
  }
})

t.test('parseDecimalString, EMV form: up to 2 places', async t => {
  t.same(parseDecimalString('10', 'up-to-2'), { ok: true, cents: 1000 })
  t.same(parseDecimalString('10.5', 'up-to-2'), { ok: true, cents: 1050 })
  t.same(parseDecimalString('66.66', 'up-to-2'), { ok: true, cents: 6666 })
  t.same(parseDecimalString('0', 'up-to-2'), { ok: false, reason: 'TOO_SMALL' })
  t.same(parseDecimalString('1000000000000', 'up-to-2'), { ok: false, reason: 'TOO_LARGE' })
  t.same(parseDecimalString('0001.00', 'up-to-2'), { ok: true, cents: 100 }, 'leading zeros do not count towards the size')
  for (const bad of ['10.', '.5', '10.555', '1,5', '']) {
    t.same(parseDecimalString(bad, 'up-to-2'), { ok: false, reason: 'NOT_A_DECIMAL_STRING' }, JSON.stringify(bad))
  }
})

t.test('cents to number and string', async t => {
  t.equal(centsToNumber(1050), 10.5)
  t.equal(centsToNumber(29), 0.29)
  t.equal(centsToNumber(0), 0)
  t.equal(centsToString(1050), '10.50')
  t.equal(centsToString(1), '0.01')
  t.equal(centsToString(0), '0.00')
  t.equal(centsToString(-5), '-0.05')
  t.equal(centsToString(MAX_CENTS), '999999999999.99')
  t.throws(() => centsToNumber(1.5), RangeError)
  t.throws(() => centsToString(NaN), RangeError)
  fc.assert(fc.property(fc.integer({ min: 1, max: MAX_CENTS }), cents => {
    const viaNumber = parseAmount(centsToNumber(cents))
    const viaString = parseDecimalString(centsToString(cents))
    return viaNumber.ok && viaNumber.cents === cents && viaString.ok && viaString.cents === cents
  }), { numRuns: 2000 })
})

t.test('divideHalfUp: an exact half goes up, on integers of any size', async t => {
  t.equal(divideHalfUp(5n, 2n), 3n)
  t.equal(divideHalfUp(7n, 2n), 4n, 'half-up, not half-even (which gives 4 here and 2 for 5/2)')
  t.equal(divideHalfUp(149n, 100n), 1n)
  t.equal(divideHalfUp(150n, 100n), 2n)
  t.equal(divideHalfUp(0n, 3n), 0n)
  t.equal(divideHalfUp(10n ** 30n + 5n, 10n), 10n ** 29n + 1n, 'beyond 2^53')
  t.throws(() => divideHalfUp(-1n, 2n), RangeError)
  t.throws(() => divideHalfUp(1n, 0n), RangeError)
})

t.test('percentOf rounds half-up to the cent, exactly', async t => {
  t.equal(percentOf(10000, 33.33), 3333)
  t.equal(percentOf(10000, 10), 1000)
  t.equal(percentOf(10000, 100), 10000)
  t.equal(percentOf(3, 33.33), 1, '0.9999 cents rounds to 1')
  t.equal(percentOf(1, 50), 1, 'half a cent rounds up')
  t.equal(percentOf(1, 49.99), 0)
  t.equal(percentOf(150, 0.5), 1, '0.75 cents rounds to 1')
  t.equal(percentOf(12345, 0), 0)
  t.equal(percentOf(100, 1e-7), 0, 'exponent form of a tiny percent')
  t.equal(percentOf(MAX_CENTS, 100), MAX_CENTS, 'no precision lost at the maximum')
  t.equal(percentOf(250, 64.6), 162, '161.5 cents rounds up, though 250 * 64.6 / 100 is 161.49999999999997')
  t.throws(() => percentOf(-1, 10), RangeError)
  t.throws(() => percentOf(100, -1), RangeError)
  t.throws(() => percentOf(100, NaN), RangeError)
  t.throws(() => percentOf(100, Infinity), RangeError)
  t.throws(() => percentOf(0.5, 10), RangeError)
  // Against an exact reference: with at most 2 decimals in the percent, the share in 1/10000 cent is an integer.
  fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), fc.integer({ min: 0, max: 10_000 }), (cents, basisPoints) => {
    const exact = BigInt(cents) * BigInt(basisPoints)
    const expected = Number((exact + 5000n) / 10000n)
    return percentOf(cents, basisPoints / 100) === expected
  }), { numRuns: 2000 })
})

t.test('brlToCents reads control-plane BRL exactly, zero and negative included', async t => {
  t.equal(brlToCents(0), 0)
  t.equal(brlToCents(0.29), 29, 'not 28.999...')
  t.equal(brlToCents(1e11), 1e13)
  t.equal(brlToCents(-12.5), -1250)
  t.equal(brlToCents(10.005), 1001, 'a third decimal rounds half away from zero, from the decimal written')
  t.equal(brlToCents(10.004), 1000)
  t.equal(brlToCents(-0.005), -1)
  t.equal(brlToCents(1e-7), 0)
  t.equal(Object.is(brlToCents(-0.001), -0), false, 'never -0')
})
