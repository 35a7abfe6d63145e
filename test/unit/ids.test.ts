import t from 'tap'
import fc from 'fast-check'
import {
  createRng, endToEndId, isValidEndToEndId, isValidTxid, randomInt, returnId, txid
} from '../../server/domain/ids.js'

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

t.test('createRng is deterministic per seed', async t => {
  const draw = (seed: number | string): number[] => { const r = createRng(seed); return [r.next(), r.next(), r.next()] }
  t.same(draw('ci-run-7'), draw('ci-run-7'))
  t.same(draw(42), draw('42'), 'a number seed and its decimal string are the same seed')
  t.not(draw(42)[0], draw(43)[0])
  t.not(draw('')[0], draw(' ')[0])
  t.equal(createRng('x').uuid(), createRng('x').uuid())
})

t.test('createRng output ranges', async t => {
  const rng = createRng('ranges')
  const counts = new Array(10).fill(0)
  for (let i = 0; i < 10_000; i++) {
    const x = rng.next()
    if (x < 0 || x >= 1) t.fail(`next() out of [0, 1): ${x}`)
    counts[rng.int(10)]++
  }
  // A fair die over 10,000 throws: each face within 1,000 +- 150 (more than 4 standard deviations).
  t.ok(counts.every(c => c > 850 && c < 1150), `roughly uniform: ${counts.join(' ')}`)
  t.match(rng.alnum(50), /^[0-9A-Za-z]{50}$/)
  t.match(rng.hex(40), /^[0-9a-f]{40}$/)
  t.equal(rng.alnum(0), '')
  t.ok(Array.from({ length: 500 }, () => rng.uuid()).every(u => UUID_V4.test(u)), 'version 4, RFC 4122 variant')
  t.throws(() => rng.int(0), RangeError)
  t.throws(() => rng.int(1.5), RangeError)
  t.throws(() => rng.alnum(-1), RangeError)
  t.throws(() => randomInt({ next: () => 0 }, Infinity), RangeError)
})

t.test('endToEndId and rtrId', async t => {
  const rng = createRng('e2e')
  const now = Date.UTC(2024, 0, 2, 3, 4, 59, 999)
  const e2e = endToEndId('12345678', now, rng)
  t.equal(e2e.length, 32)
  t.match(e2e, /^E12345678202401020304[0-9A-Za-z]{11}$/)
  t.ok(isValidEndToEndId(e2e))
  const rtr = returnId('00000000', now, rng)
  t.match(rtr, /^D00000000202401020304[0-9A-Za-z]{11}$/)
  t.match(endToEndId('12345678', Date.UTC(2025, 11, 31, 23, 59), rng), /^E12345678202512312359/, 'UTC, not local time')
  t.throws(() => endToEndId('1234567', now, rng), RangeError, 'ISPB of 7')
  t.throws(() => endToEndId('123456789', now, rng), RangeError, 'ISPB of 9')
  t.throws(() => endToEndId('12345678', NaN, rng), RangeError)
  t.throws(() => endToEndId('12345678', Date.UTC(10000, 0, 1), rng), RangeError, 'year 10000 does not fit')
  t.equal(endToEndId('12345678', now, createRng(1)), endToEndId('12345678', now, createRng(1)), 'reproducible')
})

t.test('txid', async t => {
  const rng = createRng('txid')
  t.match(txid(rng), /^[a-zA-Z0-9]{32}$/)
  t.match(txid(rng, 25), /^[a-zA-Z0-9]{25}$/)
  t.ok(isValidTxid(txid(rng)))
  t.throws(() => txid(rng, 0), RangeError)
  t.throws(() => txid(rng, 36), RangeError)
  t.ok(isValidTxid('a'.repeat(26)))
  t.ok(isValidTxid('Z9'.repeat(17) + 'x'), '35')
  t.notOk(isValidTxid('a'.repeat(25)))
  t.notOk(isValidTxid('a'.repeat(36)))
  t.notOk(isValidTxid('a'.repeat(25) + '-'))
})

t.test('isValidEndToEndId', async t => {
  t.ok(isValidEndToEndId('E12345678202401020304abcdefghijk'))
  t.notOk(isValidEndToEndId('E12345678202401020304abcdefghij'), '31')
  t.notOk(isValidEndToEndId('E12345678202401020304abcdefghijkl'), '33')
  t.notOk(isValidEndToEndId('E12345678202401020304abcdefghi-k'))
  fc.assert(fc.property(fc.string(), fc.integer({ min: 0, max: 253402300799999 }), (seed, now) =>
    isValidEndToEndId(endToEndId('ABCD1234', now, createRng(seed)))))
})
