import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { advance, balanceOf, bearer, buildTestApp, newAccount } from '../helpers/app.js'
import { enumerations } from '../helpers/enumerations.js'
import { receiveIncoming } from '../helpers/payins.js'
import { cashOut, cashOutBody } from '../helpers/payouts.js'

/**
 * A MED and a refund look up what they are checked against through indexes: the dispute still open
 * of a PIX (by its endToEndId), an account's disputes, and the refunds and returns of a payment (by
 * its id), not every MED of the sandbox nor every transaction of the account. Each test counts the
 * collections gone through (test/helpers/enumerations.ts) and the account's transactions read whole.
 */

/** How often an account's transactions were read whole (`store.transactionsOf`) while `fn` ran. */
async function accountReads<T> (app: FastifyInstance, fn: () => Promise<T>): Promise<number> {
  const store = app.sandbox.store
  const real = store.transactionsOf.bind(store)
  let reads = 0
  store.transactionsOf = (accountId: number) => { reads++; return real(accountId) }
  try {
    await fn()
  } finally {
    delete (store as unknown as Record<string, unknown>).transactionsOf
  }
  return reads
}

t.test('a MED is opened, moved and listed through indexes: one open per PIX, the account\'s own listed', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const other = await newAccount(app, { balance: 0 })
  const pix: Array<{ endToEndId: string }> = []
  for (let i = 0; i < 6; i++) pix.push(await receiveIncoming(app, i % 2 === 0 ? acc.accountId : other.accountId, 10 + i))
  const open = (endToEndId: string) => app.inject({ method: 'POST', url: '/__sandbox/med', payload: { endToEndId, reason: 'REFUND_REQUEST', cause: 'SCAM' } })
  for (const p of pix.slice(1)) t.equal((await open(p.endToEndId)).statusCode, 201)

  const { counts } = await enumerations(app, ['meds'], async () => {
    const first = await open(pix[0].endToEndId)
    t.equal(first.statusCode, 201, first.body)
    t.equal((await open(pix[0].endToEndId)).statusCode, 409, 'one open MED per PIX')
    const id = first.json().id
    t.equal((await app.inject({ method: 'POST', url: `/__sandbox/med/${id}/transition`, payload: { status: 'RECEIVED' } })).statusCode, 200)
    t.equal((await open(pix[0].endToEndId)).statusCode, 409, 'RECEIVED is still open')
    t.equal((await app.inject({ method: 'POST', url: `/__sandbox/med/${id}/transition`, payload: { status: 'ANALYZED', analysisResult: 'REJECTED' } })).statusCode, 200)
    t.equal((await open(pix[0].endToEndId)).statusCode, 201, 'a MED once the last one ended')
    const listed = (await app.inject({ method: 'GET', url: '/api/med', headers: bearer(acc.token) })).json()
    t.same(listed.data.map((m: { endToEnd: string }) => m.endToEnd), [pix[0], pix[0], pix[4], pix[2]].map(p => p.endToEndId), 'the account\'s own, newest first')
    t.same(listed.data.map((m: { status: string }) => m.status), ['OPEN', 'ANALYZED', 'OPEN', 'OPEN'])
  })
  t.same(counts, { meds: 0 }, 'no MED gone through')
})

t.test('a refund and a pay-out\'s return count what is left of the payment from its own refunds, not from the account\'s transactions', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 100, fee: 0 })
  const paid = await receiveIncoming(app, acc.accountId, 50)
  const out = await cashOut(app, acc.token, cashOutBody({ value: 40 }))
  t.equal(out.statusCode, 201, out.body)
  await advance(app, 1000)
  const refundIn = (value: number) => app.inject({ method: 'POST', url: `/api/pix/refund-in/${paid.transactionId}`, headers: bearer(acc.token), payload: { refundValue: value } })
  const returned = (amount?: number) => app.inject({ method: 'POST', url: `/__sandbox/transactions/${out.json().transactionId}/refund-received`, payload: amount === undefined ? {} : { amount } })

  const reads = await accountReads(app, async () => {
    t.equal((await refundIn(30)).statusCode, 201)
    const beyond = await refundIn(30)
    t.equal(beyond.statusCode, 400, 'only 20 left of the payment')
    t.equal((await returned(15)).statusCode, 201)
    const rest = await returned()
    t.equal(rest.json().amount, 25, 'the rest of the pay-out')
    t.equal((await returned(1)).statusCode, 400, 'nothing left of it')
  })
  t.equal(reads, 0, 'no account\'s transactions read whole')
  t.equal((await balanceOf(app, acc.accountId)).invariantHolds, true)
})
