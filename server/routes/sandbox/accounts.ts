import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { ApiError } from '../../errors/api-error.js'
import { parseAmount } from '../../domain/money.js'
import { errorResponses } from '../../schemas/common.js'
import { AccountList, AccountSettingsBody, AccountView, BalanceChangeBody, CreatedAccountView, NumericIdParams } from '../../schemas/sandbox.js'
import { accountView } from './views.js'

/** Accounts on the control plane: create isolated accounts, read them, fund them. */
const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const sb = app.sandbox

  app.post('/accounts', {
    schema: {
      operationId: 'sandboxCreateAccount',
      tags: ['Sandbox'],
      summary: 'Create a fresh isolated account with its own credentials and client certificate',
      body: Type.Optional(AccountSettingsBody),
      response: { 201: CreatedAccountView, ...errorResponses('sandbox', [400]) },
    },
  }, async (request, reply) => {
    // Amounts become integer cents: refuse 10.005 rather than round it silently.
    const body = request.body ?? {}
    const amounts: Array<[string, number | undefined]> = [
      ['balance', body.balance], ['fee', body.fee],
      ...Object.entries(body.limits ?? {}).map(([k, v]) => [`limits.${k}`, v] as [string, number | undefined]),
    ]
    const inexact = amounts.filter(([, v]) => v !== undefined && v !== 0 && !parseAmount(v).ok).map(([k]) => `${k} deve ter no máximo 2 casas decimais`)
    if (inexact.length > 0) throw new ApiError(400, 'HTTP_ERROR', inexact)
    const { account, privateKey } = await sb.accounts.create(body)
    await sb.store.commit()
    return reply.status(201).send({ ...accountView(account), privateKey })
  })

  app.get('/accounts', {
    schema: { operationId: 'sandboxListAccounts', tags: ['Sandbox'], summary: 'Every account', response: { 200: AccountList } },
  }, async () => ({ accounts: sb.store.accounts().map(accountView) }))

  app.get('/accounts/:id', {
    schema: { operationId: 'sandboxGetAccount', tags: ['Sandbox'], summary: 'One account: settings, credentials, balances and ledger totals', params: NumericIdParams, response: { 200: AccountView, ...errorResponses('sandbox', [404]) } },
  }, async (request) => accountView(sb.accounts.require(request.params.id)))

  app.post('/accounts/:id/balance', {
    schema: {
      operationId: 'sandboxChangeBalance',
      tags: ['Sandbox'],
      summary: 'Set the available balance, or credit it (a negative credit debits)',
      description: 'Body `{ "set": 100.00 }` or `{ "credit": 50.00 }`. Recorded as an adjustment, so the ledger invariant still holds.',
      params: NumericIdParams,
      body: BalanceChangeBody,
      response: { 200: AccountView, ...errorResponses('sandbox', [400, 404]) },
    },
  }, async (request) => {
    const account = sb.accounts.require(request.params.id)
    const { set, credit } = request.body
    if ((set === undefined) === (credit === undefined)) throw new ApiError(400, 'HTTP_ERROR', 'Envie exatamente um de: set, credit')
    const value = (set ?? credit)!
    if (value !== 0 && !parseAmount(Math.abs(value)).ok) throw new ApiError(400, 'HTTP_ERROR', 'O valor deve ter no máximo 2 casas decimais')
    if (!sb.accounts.changeBalance(account, { set, credit })) {
      throw new ApiError(400, 'INSUFFICIENT_BALANCE', 'O saldo disponível não pode ficar negativo')
    }
    await sb.store.commit()
    return accountView(account)
  })
}

export default accountRoutes
