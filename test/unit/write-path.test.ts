import t from 'tap'
import { Store } from '../../server/store/store.js'
import * as ledger from '../../server/domain/ledger.js'
import { recordTransition } from '../../server/services/history.js'
import type { TSchema } from '@sinclair/typebox'
import type { ReadOnlyReplies } from '../../server/route-plugin.js'
import type { DeliveryView } from '../../server/schemas/webhooks.js'
import type { Account, Delivery, Transaction } from '../../server/store/state.js'

/**
 * One write path (CONTRIBUTING.md, Rules every capability follows): a write that skips the store's API
 * does not compile. Each line under `@ts-expect-error` below is such a write; if one ever compiled,
 * `tsc --noEmit` (the first step of `npm test`) would fail on the unused directive. The functions
 * holding them never run: the compiler is what is under test. The same writes through the API compile
 * and work.
 */
function writesAroundTheApi (store: Store, account: Account, tx: Transaction): void {
  // @ts-expect-error a stored record is read-only
  store.data.accounts['1'].name = 'X'
  // @ts-expect-error all the way down
  store.data.accounts['1'].balance.availableCents = 0
  // @ts-expect-error a record the lookups hand out is read-only too
  account.totals.settledInCents += 1
  // @ts-expect-error no insert into a collection by hand
  store.data.accounts['9'] = account
  // @ts-expect-error no delete by hand
  delete store.data.transactions[tx.id]
  // @ts-expect-error arrays are read-only (no push, no splice)
  account.certificateFingerprints.push('FP')
  // @ts-expect-error nor the sequences
  store.data.seq.account = 99
  // @ts-expect-error the ledger moves money only on a Draft, which only Store.update hands out
  ledger.reserve(account, 100)
  // @ts-expect-error and a copy is no Draft either
  ledger.creditIncoming({ ...account, balance: { ...account.balance }, totals: { ...account.totals } }, 100)
  // @ts-expect-error a transition is a write too
  recordTransition(tx, 'CONFIRMED', '2026-03-10T15:00:00.000Z')
  // @ts-expect-error there is no way to mark a record changed by hand: the API marks what it changes
  store.changed('accounts', 1)
}

/** What a route of the given response schema answers, as Fastify types it with the routes' type provider. */
type ReplyOf<S extends TSchema> = (ReadOnlyReplies & { schema: S })['serializer']

/**
 * Nor is a reply a way around it: a stored record is a reply as it is, so no route needs a writable view
 * of one (`asReply` made one, and `asReply(store.account(1)!).name = 'x'` compiled), and what a route
 * answers is typed read-only all the way down (server/route-plugin.ts).
 */
function repliesAroundTheApi (delivery: Delivery): void {
  const reply: ReplyOf<typeof DeliveryView> = delivery
  // @ts-expect-error a reply is read-only
  reply.status = 'delivered'
  // @ts-expect-error all the way down
  reply.attempts.push(reply.attempts[0])
}

t.test('the write path: what compiles is what the store sees', async t => {
  t.type(writesAroundTheApi, 'function', 'the writes above are checked by the compiler, never run')
  t.type(repliesAroundTheApi, 'function', 'and so are the replies')
  const store = new Store()
  await store.open()
  store.transact(() => store.addAccount({
    id: 1,
    name: 'A',
    document: '11222333000181',
    ispb: '99999004',
    bankName: 'B',
    clientId: 'c',
    clientSecret: 'secret-secret',
    certificateFingerprints: [],
    certificatePem: '',
    providerGroup: 'B',
    documentCheck: false,
    feeCents: 0,
    limits: { perTransactionCents: 1, dailyCents: 1, nightlyCents: 1 },
    cashInMinExpirationSeconds: 30,
    splitFrequency: 'DAILY',
    balance: { availableCents: 500, blockedCents: 0 },
    totals: { openingCents: 500, adjustmentsCents: 0, settledInCents: 0, settledOutCents: 0, feesCents: 0 },
    createdAt: '2026-03-10T15:00:00.000Z',
  }))
  t.ok(store.transact(() => store.update('accounts', 1, a => ledger.reserve(a, 100))), 'through the API the same write compiles and works')
  t.same(store.account(1)!.balance, { availableCents: 400, blockedCents: 100 })
  t.throws(() => store.update('accounts', 1, a => ledger.release(a, 100)), { message: /outside store\.transact/ }, 'and only inside a unit')
})
