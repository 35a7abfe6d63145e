import type { RoutesPlugin } from '../../route-plugin.js'
import { Type } from '@sinclair/typebox'
import { Refusal, invalidRequest } from '../../errors/refusal.js'
import { amountMessage, centsToString, MAX_CENTS, parseAmount } from '../../domain/money.js'
import { errorResponses } from '../../schemas/common.js'
import { TokenResponse } from '../../schemas/auth.js'
import { TOKEN_LIFETIME_SECONDS, toolTokenId } from '../../auth/tokens.js'
import { AccountChangeBody, AccountList, AccountSettingsBody, AccountView, BalanceChangeBody, CreatedAccountView, NumericIdParams } from '../../schemas/sandbox.js'
import { accountView } from './views.js'
import { SANDBOX_SHAPE } from './errors.js'

/** In `u` mode a surrogate pair is one code point; only an unpaired half is a code point of category Cs. */
const LONE_SURROGATE = /\p{Cs}/u

/** Accounts on the control plane: create isolated accounts, read them, fund them. */
const accountRoutes: RoutesPlugin = async (app) => {
  const sb = app.sandbox

  app.post('/accounts', {
    schema: {
      operationId: 'sandboxCreateAccount',
      tags: ['Sandbox'],
      summary: 'Create a fresh isolated account with its own credentials and client certificate',
      body: Type.Optional(AccountSettingsBody),
      response: { 201: CreatedAccountView, ...errorResponses(SANDBOX_SHAPE, [400]) },
    },
  }, async (request, reply) => {
    // Amounts become integer cents: refuse 10.005 rather than round it silently.
    const body = request.body ?? {}
    const amounts: Array<[string, number | undefined]> = [
      ['balance', body.balance], ['fee', body.fee],
      ...Object.entries(body.limits ?? {}).map(([k, v]) => [`limits.${k}`, v] as [string, number | undefined]),
    ]
    const problems = amounts.flatMap(([k, v]) => {
      const parsed = v === undefined || v === 0 ? null : parseAmount(v)
      return parsed && !parsed.ok ? [amountMessage(k, parsed.reason, 'en')] : []
    })
    // The name becomes the certificate's subject, whose UTF-8 encoding throws on a lone surrogate:
    // refused here, before an account id is taken.
    if (body.name !== undefined && LONE_SURROGATE.test(body.name)) problems.push('name must be well-formed Unicode text (it holds a lone UTF-16 surrogate)')
    if (problems.length > 0) throw invalidRequest(problems)
    const { account, privateKey } = await sb.accounts.create(body)
    return reply.status(201).send({ ...accountView(account), privateKey })
  })

  app.get('/accounts', {
    schema: { operationId: 'sandboxListAccounts', tags: ['Sandbox'], summary: 'Every account', response: { 200: AccountList } },
  }, async () => ({ accounts: sb.store.accounts().map(accountView) }))

  app.get('/accounts/:id', {
    schema: { operationId: 'sandboxGetAccount', tags: ['Sandbox'], summary: 'One account: settings, credentials, balances and ledger totals', params: NumericIdParams, response: { 200: AccountView, ...errorResponses(SANDBOX_SHAPE, [404]) } },
  }, async (request) => accountView(sb.accounts.require(request.params.id)))

  app.patch('/accounts/:id', {
    schema: {
      operationId: 'sandboxChangeAccount',
      tags: ['Sandbox'],
      summary: 'Change an account\'s settings after its creation: webhookMtlsCheck',
      description: 'Body `{ "webhookMtlsCheck": false }`: configuring an API Pix webhook of the account no longer checks its https receiver\'s mutual TLS (docs/webhooks.md); `true` checks it again. The account as it now is.',
      params: NumericIdParams,
      body: AccountChangeBody,
      response: { 200: AccountView, ...errorResponses(SANDBOX_SHAPE, [400, 404]) },
    },
  }, async (request) => accountView(sb.accounts.changeSettings(sb.accounts.require(request.params.id), request.body)))

  app.post('/accounts/:id/token', {
    schema: {
      operationId: 'sandboxIssueToken',
      tags: ['Sandbox'],
      summary: 'Issue an access token for an account, for a tool (the CLI\'s token): the integration report does not grade it',
      description: 'The token works as one from POST /api/auth/token does, for 1800 s of sandbox time. The integration report grades the tokens an integration requests itself; these are not among them, and neither is a 401 for one of these once it has expired.',
      params: NumericIdParams,
      response: { 201: TokenResponse, ...errorResponses(SANDBOX_SHAPE, [404]) },
    },
  }, async (request, reply) => {
    const account = sb.accounts.require(request.params.id)
    const accessToken = sb.tokens.issue(account, toolTokenId(sb.rng.uuid()))
    return reply.status(201).send({ access_token: accessToken, token_type: 'Bearer' as const, expires_in: TOKEN_LIFETIME_SECONDS })
  })

  app.post('/accounts/:id/balance', {
    schema: {
      operationId: 'sandboxChangeBalance',
      tags: ['Sandbox'],
      summary: 'Set the available balance, or credit it (a negative credit debits)',
      description: 'Body `{ "set": 100.00 }` or `{ "credit": 50.00 }`. Recorded as an adjustment, so the ledger invariant still holds.',
      params: NumericIdParams,
      body: BalanceChangeBody,
      response: { 200: AccountView, ...errorResponses(SANDBOX_SHAPE, [400, 404]) },
    },
  }, async (request) => {
    const account = sb.accounts.require(request.params.id)
    const { set, credit } = request.body
    if ((set === undefined) === (credit === undefined)) throw invalidRequest('Send exactly one of: set, credit')
    const value = (set ?? credit)!
    const parsed = value === 0 ? null : parseAmount(Math.abs(value))
    if (parsed && !parsed.ok) throw invalidRequest(amountMessage(set !== undefined ? 'set' : 'credit', parsed.reason, 'en'))
    const problem = sb.accounts.changeBalance(account, { set, credit })
    if (problem === 'NEGATIVE') throw new Refusal('INSUFFICIENT_BALANCE', 'The available balance cannot become negative')
    if (problem === 'LIMIT') throw new Refusal('BALANCE_LIMIT', `The account cannot hold more: its gross balance would exceed ${centsToString(MAX_CENTS)}, or its adjustments their limit`)
    return accountView(account)
  })
}

export default accountRoutes
