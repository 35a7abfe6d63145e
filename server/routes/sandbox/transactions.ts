import type { RoutesPlugin } from '../../route-plugin.js'
import { Refusal } from '../../errors/refusal.js'
import { centsToNumber } from '../../domain/money.js'
import { errorResponses } from '../../schemas/common.js'
import { FailTransactionBody, RefundReceivedBody, TransactionIdParams, TransactionList, TransactionListQuery, TransactionView } from '../../schemas/payouts.js'
import type { Transaction } from '../../store/state.js'
import { appliedScenarios } from '../../applied-scenarios.js'
import { SANDBOX_SHAPE } from './errors.js'

/**
 * The full record as the control plane shows it: amounts in BRL, everything else as stored, and the
 * steering `actions` this record accepts now (so the dashboard offers only what the API takes).
 */
export function transactionView (tx: Transaction, actions: ReadonlyArray<'settle' | 'fail'> = []) {
  const { amountCents, feeCents, scenarios, ...rest } = tx
  return { ...rest, amount: centsToNumber(amountCents), fee: centsToNumber(feeCents), scenarios: scenarios ?? [], actions: [...actions] }
}

/**
 * /__sandbox/transactions: the transaction query the spec leaves unshown (docs/assumptions.md), and settle/fail
 * of pending operations. Settle and fail dispatch by kind to what the owning service registered with
 * the transactions service (`createSandbox` registers each capability's), so every capability's pending records are steered alike.
 */
const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const find = (id: string): Transaction => {
    const tx = sb.transactions.find(id)
    if (!tx) throw new Refusal('TRANSACTION_NOT_FOUND', `Transaction ${id} not found`)
    return tx
  }
  /** settle and fail, for a record whose kind registered them and that is still pending; else none. */
  const view = (tx: Transaction) => {
    const ops = sb.transactions.pendingOperationsFor(tx.kind)
    return transactionView(tx, ops?.isPending(tx) ? ['settle', 'fail'] : [])
  }
  const pendingOps = (tx: Transaction) => {
    const ops = sb.transactions.pendingOperationsFor(tx.kind)
    if (!ops || !ops.isPending(tx)) {
      throw new Refusal('TRANSACTION_NOT_PENDING', `Transaction ${tx.id} (${tx.kind}) is not pending: status ${tx.status}`)
    }
    return ops
  }

  app.get('/transactions', {
    schema: {
      operationId: 'sandboxListTransactions',
      tags: ['Sandbox'],
      summary: 'Transactions, newest first, filtered by account, kind and status',
      querystring: TransactionListQuery,
      response: { 200: TransactionList, ...errorResponses(SANDBOX_SHAPE, [400]) },
    },
  }, async (request) => ({ transactions: sb.transactions.list(request.query).map(view) }))

  app.get('/transactions/:id', {
    schema: {
      operationId: 'sandboxGetTransaction',
      tags: ['Sandbox'],
      summary: 'One transaction with its history of states (the transaction query)',
      params: TransactionIdParams,
      response: { 200: TransactionView, ...errorResponses(SANDBOX_SHAPE, [404]) },
    },
  }, async (request) => view(find(request.params.id)))

  app.post('/transactions/:id/settle', {
    schema: {
      operationId: 'sandboxSettleTransaction',
      tags: ['Sandbox'],
      summary: 'Liquidate a pending operation now (a forced success, with its webhooks)',
      params: TransactionIdParams,
      response: { 200: TransactionView, ...errorResponses(SANDBOX_SHAPE, [404, 409]) },
    },
  }, async (request) => {
    const tx = find(request.params.id)
    pendingOps(tx).settle(tx)
    return view(tx)
  })

  app.post('/transactions/:id/refund-received', {
    schema: {
      operationId: 'sandboxRefundReceived',
      tags: ['Sandbox'],
      summary: 'The destination bank returns a liquidated pay-out (all or part): credits the account and fires refund_out',
      description: 'For CONFIRMED cash-outs and directory transfers. `amount` defaults to what is left to return. Delivery-fault scenarios apply (X-Sandbox-Scenario).',
      params: TransactionIdParams,
      body: RefundReceivedBody,
      response: { 201: TransactionView, ...errorResponses(SANDBOX_SHAPE, [400, 404, 409, 422]) },
    },
  }, async (request, reply) => {
    const original = find(request.params.id)
    const scenarios = appliedScenarios(request, reply, 'refund-received', original.accountId)
    const tx = sb.refunds.receiveReturn(original, request.body, scenarios)
    return reply.status(201).send(view(tx))
  })

  app.post('/transactions/:id/fail', {
    schema: {
      operationId: 'sandboxFailTransaction',
      tags: ['Sandbox'],
      summary: 'End a pending operation now with an asynchronous error of spec 6.4',
      params: TransactionIdParams,
      body: FailTransactionBody,
      response: { 200: TransactionView, ...errorResponses(SANDBOX_SHAPE, [400, 404, 409]) },
    },
  }, async (request) => {
    const tx = find(request.params.id)
    pendingOps(tx).fail(tx, request.body.errorCode)
    return view(tx)
  })
}

export default routes
