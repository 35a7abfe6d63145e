import t from 'tap'
import { buildTestApp, newAccount } from '../helpers/app.js'
import { cashInBody, createCashIn, payCode } from '../helpers/payins.js'
import { ledgerProblems, shapeProblem } from '../helpers/reliability.js'

/**
 * No input breaks the ledger (docs/reliability.md): 95 credits of the largest amount took an account's cents
 * past 2^53, where they stop being exact; from then on every read of the account answered 500. Money
 * that would take an account past what it can hold is refused and changes nothing.
 */
const MAX = 999_999_999_999.99

t.test('credits and received money stop at the most an account can hold, and the account stays readable', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const credit = (value: number) => app.inject({ method: 'POST', url: `/__sandbox/accounts/${acc.accountId}/balance`, payload: { credit: value } })
  t.equal((await credit(MAX)).statusCode, 200, 'the largest amount fits an empty account')
  const over = await credit(0.01)
  t.equal(over.statusCode, 400)
  t.equal(over.json().code, 'BALANCE_LIMIT')
  t.equal(shapeProblem('sandbox', 400, over.body), null)
  const incoming = await app.inject({ method: 'POST', url: '/__sandbox/pix/incoming', payload: { accountId: acc.accountId, amount: 1 } })
  t.equal(incoming.statusCode, 422)
  t.equal(incoming.json().code, 'ACCOUNT_LIMIT_REACHED')

  const other = await newAccount(app, { balance: 0 })
  const charge = await createCashIn(app, other.token, cashInBody({ value: 5 }))
  await credit(-MAX)
  await app.inject({ method: 'POST', url: `/__sandbox/accounts/${other.accountId}/balance`, payload: { set: MAX } })
  const paid = await payCode(app, charge.pixCode)
  t.equal(paid.statusCode, 422, 'paying a charge of a full account is refused')
  t.equal(paid.json().code, 'ACCOUNT_LIMIT_REACHED')
  const chargeAfter = (await app.inject({ method: 'GET', url: `/__sandbox/transactions/${charge.transactionId}` })).json()
  t.equal(chargeAfter.status, 'PENDING', 'and the charge is still unpaid')

  for (const id of [acc.accountId, other.accountId]) {
    const view = await app.inject({ method: 'GET', url: `/__sandbox/accounts/${id}` })
    t.equal(view.statusCode, 200)
    t.same(ledgerProblems(view.json()), [], `account ${id} keeps the invariant`)
  }
})

t.test('running totals are bounded too: money that comes and goes cannot push them past exact cents', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  let refused = null
  for (let cycle = 0; cycle < 40 && refused === null; cycle++) {
    const incoming = await app.inject({ method: 'POST', url: '/__sandbox/pix/incoming', payload: { accountId: acc.accountId, amount: MAX } })
    if (incoming.statusCode !== 201) { refused = incoming; break }
    const debit = await app.inject({ method: 'POST', url: `/__sandbox/accounts/${acc.accountId}/balance`, payload: { credit: -MAX } })
    if (debit.statusCode !== 200) refused = debit
  }
  t.ok(refused, 'a limit was reached within 40 cycles')
  t.ok([400, 422].includes(refused!.statusCode), `refused with ${refused!.statusCode} ${refused!.json().code}`)
  const view = await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })
  t.equal(view.statusCode, 200, 'the account is still readable')
  t.same(ledgerProblems(view.json()), [])
  const balance = await app.inject({ method: 'GET', url: '/balance', headers: { authorization: `Bearer ${acc.token}` } })
  t.equal(balance.statusCode, 200, 'and so is its balance on the gateway')
})
