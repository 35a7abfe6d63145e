import t from 'tap'
import fc from 'fast-check'
import * as ledger from '../../server/domain/ledger.js'
import { MAX_CENTS, TOTAL_LIMIT_CENTS } from '../../server/domain/money.js'
import { Store } from '../../server/store/store.js'
import type { LedgerDraft } from '../../server/store/state.js'
import { accountRecord } from './services/harness.js'

// The ledger (docs/assumptions.md, Balances), on an account the store hands out (its only write path): what each
// operation does to available and blocked money and to the running totals, what it refuses, and the
// invariant available + blocked = opening + adjustments + settledIn - settledOut - fees after any sequence.

async function account (openingCents = 10_000) {
  const store = new Store()
  await store.open()
  store.transact(() => store.addAccount(accountRecord(1, {
    balance: { availableCents: openingCents, blockedCents: 0 },
    totals: { openingCents, adjustmentsCents: 0, settledInCents: 0, settledOutCents: 0, feesCents: 0 },
  })))
  const on = <R>(fn: (a: LedgerDraft) => R): R => store.transact(() => store.ledger(1, fn))
  return { on, read: () => store.account(1)! }
}

t.test('reserve moves amount + fee from available to blocked, and refuses what available does not cover', async t => {
  const { on, read } = await account(10_000)
  t.equal(on(a => ledger.reserve(a, 2_510)), true)
  t.same(read().balance, { availableCents: 7_490, blockedCents: 2_510 })
  t.equal(on(a => ledger.reserve(a, 7_491)), false, 'one cent more than available')
  t.equal(on(a => ledger.reserve(a, 0)), false, 'nothing to reserve')
  t.equal(on(a => ledger.reserve(a, -5)), false)
  t.same(read().balance, { availableCents: 7_490, blockedCents: 2_510 }, 'a refusal changes nothing')
  t.equal(on(a => ledger.reserve(a, 7_490)), true, 'exactly what is available')
  t.same(read().balance, { availableCents: 0, blockedCents: 10_000 })
  t.ok(ledger.invariantHolds(read()))
})

t.test('settleOutgoing takes the reservation out for good and counts amount and fee apart', async t => {
  const { on, read } = await account(10_000)
  on(a => ledger.reserve(a, 1_050))
  on(a => ledger.settleOutgoing(a, 1_000, 50))
  t.same(read().balance, { availableCents: 8_950, blockedCents: 0 })
  t.equal(read().totals.settledOutCents, 1_000)
  t.equal(read().totals.feesCents, 50)
  t.ok(ledger.invariantHolds(read()))
})

t.test('release gives a failed payment its reservation back, never more than is blocked', async t => {
  const { on, read } = await account(10_000)
  on(a => ledger.reserve(a, 3_000))
  on(a => ledger.release(a, 3_000))
  t.same(read().balance, { availableCents: 10_000, blockedCents: 0 })
  on(a => ledger.reserve(a, 1_000))
  on(a => ledger.release(a, 5_000))
  t.same(read().balance, { availableCents: 10_000, blockedCents: 0 }, 'a release larger than what is blocked frees only what is blocked')
  t.same(read().totals, { openingCents: 10_000, adjustmentsCents: 0, settledInCents: 0, settledOutCents: 0, feesCents: 0 }, 'no money moved in or out')
})

t.test('creditIncoming adds to available and to settledIn; debitImmediately is a reserve and a settle in one', async t => {
  const { on, read } = await account(0)
  on(a => ledger.creditIncoming(a, 2_000))
  t.same(read().balance, { availableCents: 2_000, blockedCents: 0 })
  t.equal(read().totals.settledInCents, 2_000)
  t.equal(on(a => ledger.debitImmediately(a, 500)), true)
  t.same(read().balance, { availableCents: 1_500, blockedCents: 0 })
  t.equal(read().totals.settledOutCents, 500)
  t.equal(read().totals.feesCents, 0)
  t.equal(on(a => ledger.debitImmediately(a, 1_501)), false, 'a split or MED return the available balance does not cover')
  t.same(read().balance, { availableCents: 1_500, blockedCents: 0 })
  t.equal(read().totals.settledOutCents, 500)
  t.ok(ledger.invariantHolds(read()))
})

t.test('adjust: a credit or debit of available money, never below zero nor past the limits', async t => {
  const { on, read } = await account(1_000)
  t.equal(on(a => ledger.adjust(a, 500)), null)
  t.equal(on(a => ledger.adjust(a, -1_500)), null, 'down to exactly zero')
  t.same(read().balance, { availableCents: 0, blockedCents: 0 })
  t.equal(read().totals.adjustmentsCents, -1_000)
  t.equal(on(a => ledger.adjust(a, -1)), 'NEGATIVE')
  t.equal(on(a => ledger.adjust(a, MAX_CENTS + 1)), 'LIMIT', 'the gross balance would pass MAX_CENTS')
  t.same(read().balance, { availableCents: 0, blockedCents: 0 }, 'refusals change nothing')
  t.equal(read().totals.adjustmentsCents, -1_000)
  t.ok(ledger.invariantHolds(read()))
})

t.test('canReceive: the gross balance stays within MAX_CENTS and settledIn within TOTAL_LIMIT_CENTS', async t => {
  const a = accountRecord(1, { balance: { availableCents: MAX_CENTS - 100, blockedCents: 50 } })
  t.equal(ledger.canReceive(a, 50), true)
  t.equal(ledger.canReceive(a, 51), false, 'blocked money counts towards the gross balance')
  const b = accountRecord(2, {
    balance: { availableCents: 0, blockedCents: 0 },
    totals: { openingCents: 0, adjustmentsCents: 0, settledInCents: TOTAL_LIMIT_CENTS - 10, settledOutCents: TOTAL_LIMIT_CENTS - 10, feesCents: 0 },
  })
  t.equal(ledger.canReceive(b, 10), true)
  t.equal(ledger.canReceive(b, 11), false, 'the received total would pass its limit')
})

t.test('invariantHolds spots a balance that does not add up, or a negative one', async t => {
  const good = accountRecord(1)
  t.equal(ledger.invariantHolds(good), true)
  t.equal(ledger.invariantHolds({ ...good, balance: { availableCents: 500_001, blockedCents: 0 } }), false, 'one cent nobody accounts for')
  t.equal(ledger.invariantHolds({ ...good, balance: { availableCents: 500_010, blockedCents: -10 } }), false, 'negative blocked')
  t.equal(ledger.invariantHolds({ ...good, balance: { availableCents: 499_999.5, blockedCents: 0.5 } }), false, 'fractions of a cent')
})

/** One step of what the services do to an account; settle and release apply to a reservation made before. */
type Op =
  | { op: 'reserve', cents: number, feeCents: number }
  | { op: 'settle', pick: number }
  | { op: 'release', pick: number }
  | { op: 'credit', cents: number }
  | { op: 'debit', cents: number }
  | { op: 'adjust', cents: number }

const cents = fc.integer({ min: 1, max: 50_000 })
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('reserve' as const), cents, feeCents: fc.integer({ min: 0, max: 100 }) }),
  fc.record({ op: fc.constant('settle' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('release' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('credit' as const), cents }),
  fc.record({ op: fc.constant('debit' as const), cents }),
  fc.record({ op: fc.constant('adjust' as const), cents: fc.integer({ min: -50_000, max: 50_000 }) })
)

t.test('property: after any sequence of operations the invariant holds and money is neither made nor lost', async t => {
  await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: 100_000 }), fc.array(opArb, { maxLength: 40 }), async (opening, ops) => {
    const { on, read } = await account(opening)
    // The model: what the account must show, computed apart from the ledger.
    let available = opening
    let blocked = 0
    const reservations: Array<{ amount: number, fee: number }> = []
    for (const step of ops) {
      switch (step.op) {
        case 'reserve': {
          const ok = on(a => ledger.reserve(a, step.cents + step.feeCents))
          if (ok !== (available >= step.cents + step.feeCents)) return false
          if (ok) { available -= step.cents + step.feeCents; blocked += step.cents + step.feeCents; reservations.push({ amount: step.cents, fee: step.feeCents }) }
          break
        }
        case 'settle': {
          if (reservations.length === 0) break
          const [r] = reservations.splice(step.pick % reservations.length, 1)
          on(a => ledger.settleOutgoing(a, r.amount, r.fee))
          blocked -= r.amount + r.fee
          break
        }
        case 'release': {
          if (reservations.length === 0) break
          const [r] = reservations.splice(step.pick % reservations.length, 1)
          on(a => ledger.release(a, r.amount + r.fee))
          blocked -= r.amount + r.fee
          available += r.amount + r.fee
          break
        }
        case 'credit':
          on(a => ledger.creditIncoming(a, step.cents))
          available += step.cents
          break
        case 'debit': {
          const ok = on(a => ledger.debitImmediately(a, step.cents))
          if (ok !== (available >= step.cents)) return false
          if (ok) available -= step.cents
          break
        }
        case 'adjust': {
          const problem = on(a => ledger.adjust(a, step.cents))
          if ((problem === 'NEGATIVE') !== (available + step.cents < 0)) return false
          if (problem === null) available += step.cents
          break
        }
      }
      const now = read()
      if (!ledger.invariantHolds(now)) return false
      if (now.balance.availableCents !== available || now.balance.blockedCents !== blocked) return false
    }
    return true
  }), { numRuns: 200 })
  t.pass('200 random sequences kept the invariant and matched the model')
})
