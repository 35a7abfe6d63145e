import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { bearer, buildTestApp, newAccount } from '../helpers/app.js'
import { cashInBody, createCashIn, payCode } from '../helpers/payins.js'
import { cashOutBody } from '../helpers/payouts.js'

/**
 * An amount is refused for what is really wrong with it. `balance: 1e12` was refused as
 * "at most 2 decimals" and `value: 1E400` (Infinity once parsed) as "minimum 0.01". Bodies are sent as
 * text, so 1E400 reaches the server as the client wrote it.
 */
const raw = (app: FastifyInstance, method: 'POST' | 'PUT', url: string, text: string, headers: Record<string, string> = {}) =>
  app.inject({ method, url, headers: { 'content-type': 'application/json', ...headers }, payload: text })

const messages = (body: { message: string | string[] }): string => ([] as string[]).concat(body.message).join(' | ')

t.test('control plane: too large and not finite are said so, and nothing is created', async t => {
  const app = await buildTestApp(t)
  const before = (await app.inject({ method: 'GET', url: '/__sandbox/accounts' })).json().accounts.length
  const tooLarge = await raw(app, 'POST', '/__sandbox/accounts', '{"balance": 1e12}')
  t.equal(tooLarge.statusCode, 400)
  t.equal(messages(tooLarge.json()), 'balance exceeds the maximum amount (999999999999.99)')
  const inexact = await raw(app, 'POST', '/__sandbox/accounts', '{"balance": 10.005, "fee": 0.001, "limits": {"daily": 1e12}}')
  t.equal(inexact.statusCode, 400)
  t.same(inexact.json().message.split('; '), ['balance must have at most 2 decimal places', 'fee must have at most 2 decimal places', 'limits.daily exceeds the maximum amount (999999999999.99)'], 'one message per field, each with its own reason')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts' })).json().accounts.length, before, 'no account was created')

  const credit = await raw(app, 'POST', '/__sandbox/accounts/1/balance', '{"credit": 1e12}')
  t.equal(credit.statusCode, 400)
  t.equal(credit.json().message, 'credit exceeds the maximum amount (999999999999.99)')
  const set = await raw(app, 'POST', '/__sandbox/accounts/1/balance', '{"set": 0.001}')
  t.equal(set.json().message, 'set must have at most 2 decimal places')
  const incoming = await raw(app, 'POST', '/__sandbox/pix/incoming', '{"accountId": 1, "amount": 1E400}')
  t.equal(incoming.statusCode, 400)
  t.equal(incoming.json().message, 'amount must be a finite number')
})

t.test('gateway: 1E400 is not a finite number and 1e12 is too large, on every amount field', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 1000 })
  const auth = bearer(acc.token)
  const cashOut = (value: string) => raw(app, 'POST', '/api/pix/cash-out', JSON.stringify(cashOutBody({ value: 1 })).replace('"value":1', `"value":${value}`), auth)
  const infinite = await cashOut('1E400')
  t.equal(infinite.statusCode, 400)
  t.equal(messages(infinite.json()), 'Valor inválido: value deve ser um número finito')
  t.equal(messages((await cashOut('1e12')).json()), 'Valor inválido: value excede o valor máximo (999999999999.99)')
  t.equal(messages((await cashOut('1.001')).json()), 'Valor inválido: value deve ter no máximo 2 casas decimais', 'the decimals message is kept for decimals')

  const cashIn = await raw(app, 'POST', '/api/pix/cash-in', JSON.stringify(cashInBody({ value: 1 })).replace('"value":1', '"value":1E400'), auth)
  t.equal(cashIn.statusCode, 400)
  t.equal(messages(cashIn.json()), 'transaction.value deve ser um número finito')

  const dict = await raw(app, 'POST', '/dict/pix', '{"pixKey": "+5511987654321", "payment": {"currency": "BRL", "amount": 1E400}}', { ...auth, 'x-idempotency-key': '3f2b8c1e-9a4d-4e7b-8c2a-000000000001' })
  t.equal(dict.statusCode, 400)
  t.equal(dict.json().message, 'Valor inválido: payment.amount deve ser um número finito')
  const dictLarge = await raw(app, 'POST', '/dict/pix', '{"pixKey": "+5511987654321", "payment": {"currency": "BRL", "amount": 1e12}}', { ...auth, 'x-idempotency-key': '3f2b8c1e-9a4d-4e7b-8c2a-000000000002' })
  t.equal(dictLarge.json().message, 'Valor inválido: payment.amount excede o valor máximo (999999999999.99)')

  const charge = await createCashIn(app, acc.token, cashInBody({ value: 50 }))
  const paid = (await payCode(app, charge.pixCode)).json()
  const refund = await raw(app, 'POST', `/api/pix/refund-in/${paid.transactionId}`, '{"refundValue": 1E400}', auth)
  t.equal(refund.statusCode, 400)
  t.equal(messages(refund.json()), 'refundValue deve ser um número finito')
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json().balance.available, 1050, 'nothing moved')
})
