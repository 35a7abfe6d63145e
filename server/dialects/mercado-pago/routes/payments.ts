import { Type } from '@sinclair/typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { appliedScenarios } from '../../../applied-scenarios.js'
import { centsToNumber, parseAmount } from '../../../domain/money.js'
import { Refusal } from '../../../errors/refusal.js'
import type { RoutesPlugin } from '../../../route-plugin.js'
import { errorResponses } from '../../../schemas/common.js'
import type { Account, Transaction } from '../../../store/state.js'
import { receivedOf } from '../../../services/charge-records.js'
import { hasScenario } from '../../../../scenarios/resolver.js'
import { badRequest, idempotencyConflict, invalidToken, MERCADO_PAGO_SHAPE, missingIdempotencyKey, missingToken, policyUnauthorized, refundInProcess, refundNotFound, resourceLocked } from '../errors.js'
import { guestPayerId, readExpiration, readPaymentRequest, requestDigest } from '../payments.js'
import { searchPayments, type PaymentSource, type SearchQuery } from '../search.js'
import { isRefundInProcess, paymentOf, REFUND_ID_BASE, refundView } from '../views.js'
import { findPayment, paymentIdOfSeq, paymentViews, txidOfPayment } from '../context.js'

/**
 * Mercado Pago's payments API for Pix (docs/mercado-pago.md): its routes under /v1/payments, each
 * authenticated by the account's access token, thin over the charge and refund services.
 */

const TAGS = ['Mercado Pago']
const Id = Type.Object({ id: Type.String({ maxLength: 40 }) })
const RefundParams = Type.Object({ id: Type.String({ maxLength: 40 }), refundId: Type.String({ maxLength: 40 }) })
/** The payment object and the refund object (docs/mercado-pago.md): open objects, every key production answers. */
const PaymentObject = Type.Object({}, { additionalProperties: true, description: 'The payment object (docs/mercado-pago.md, "The payment object")' })
const RefundObject = Type.Object({}, { additionalProperties: true, description: 'The refund object (docs/mercado-pago.md, "Refunds")' })
const SearchAnswer = Type.Object({
  paging: Type.Object({ total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }),
  results: Type.Array(PaymentObject),
})
const AnyBody = Type.Unknown()
const SEARCH_PARAMETERS = ['sort', 'criteria', 'range', 'begin_date', 'end_date', 'limit', 'offset', 'external_reference', 'status', 'status_detail', 'id']
const IDEMPOTENCY_KEY_MAX = 128
/** An idempotency key names its first result for 24 h of the clock, then makes a new one (docs/assumptions.md, Mercado Pago). */
const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000
/** Refunds within 180 days of the approval (docs/assumptions.md, Mercado Pago). */
const REFUND_DEADLINE_DAYS = 180

/**
 * Whether the client asked to see refunds in process (`X-Render-In-Process-Refunds: true`, docs/mercado-pago.md):
 * without it, a refund held in process answers its creation with a 400 and is left out of the refund reads.
 */
const rendersInProcess = (request: FastifyRequest): boolean => {
  const value = request.headers['x-render-in-process-refunds']
  return typeof value === 'string' && value.trim().toLowerCase() === 'true'
}

/** The account of a request's token (set by the onRequest hook). */
const accountOf = (request: FastifyRequest): Account => request.account!

/** The X-Idempotency-Key of a POST: required, 1 to 128 characters. */
function idempotencyKey (request: FastifyRequest): string {
  const key = request.headers['x-idempotency-key']
  const value = typeof key === 'string' ? key.trim() : ''
  if (value === '' || value.length > IDEMPOTENCY_KEY_MAX) throw missingIdempotencyKey()
  return value
}

/** How deep a request body may nest: far more than a payment, its payer and its metadata need. */
const MAX_BODY_DEPTH = 64

/** Whether a parsed JSON value nests deeper than `max` arrays and objects, walked without recursion. */
function nestedDeeperThan (value: unknown, max: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]]
  while (pending.length > 0) {
    const [v, depth] = pending.pop()!
    if (typeof v !== 'object' || v === null) continue
    if (depth >= max) return true
    for (const child of Array.isArray(v) ? v : Object.values(v)) pending.push([child, depth + 1])
  }
  return false
}

/** The account's token: `Authorization: Bearer <accessToken>` only (a query access_token is not read). */
function tokenAccount (request: FastifyRequest): Account | Refusal {
  const header = request.headers.authorization
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null
  if (match === null) return /^Bearer\s*$/i.test(header ?? '') || header === undefined || header === '' ? missingToken() : invalidToken()
  return request.server.sandbox.store.accountByAccessToken(match[1]) ?? invalidToken()
}

const routes: RoutesPlugin = async (app) => {
  const sb = app.sandbox

  // Both SDKs send Content-Type: application/json on every request, a refund with no body included:
  // an empty body is no body.
  const json = app.getDefaultJsonParser(app.initialConfig.onProtoPoisoning ?? 'error', app.initialConfig.onConstructorPoisoning ?? 'error')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined)
    json(request, body as string, (err, parsed) => {
      if (err !== null) return done(err)
      // What reads a body walks it recursively (the idempotency digest, metadata's keys): a body nested
      // deeper than any request needs is refused here rather than overflowing the stack there.
      if (nestedDeeperThan(parsed, MAX_BODY_DEPTH)) return done(badRequest(1, `The request body is nested deeper than ${MAX_BODY_DEPTH} levels`))
      done(null, parsed)
    })
  })

  app.addHook('onRequest', (request, _reply, done) => {
    const account = tokenAccount(request)
    if (account instanceof Refusal) return done(account)
    request.account = account
    done()
  })
  // Once the body is in: a reset or an import meanwhile may have replaced the account the token named.
  app.addHook('preHandler', (request, _reply, done) => {
    const account = tokenAccount(request)
    if (account instanceof Refusal) return done(account)
    request.account = account
    done()
  })

  /**
   * Idempotency keys whose first request is still under way (an answer held by LATENCY, say): requests
   * in flight, not state. Another request with one meanwhile is 423 `resource_locked`, nothing made or replayed.
   */
  const inFlight = new Set<string>()
  const hold = (scope: string, reply: FastifyReply): void => {
    if (inFlight.has(scope)) throw resourceLocked()
    inFlight.add(scope)
    // Its answer sent, or its connection gone (a TIMEOUT, a reset): the key is free.
    reply.raw.once('close', () => inFlight.delete(scope))
  }

  /** A payment's refunds, in the order made (the refunds' own index). */
  const refundsOf = (tx: Transaction): Transaction[] => sb.refunds.refundsOf(tx)
  const one = async (request: FastifyRequest, account: Account, tx: Transaction) => (await paymentViews(sb, request, account, [tx], refundsOf))[0]

  app.post('/v1/payments', {
    schema: { operationId: 'mercadoPagoCreatePayment', tags: TAGS, summary: 'Create a Pix payment', body: AnyBody, response: { 201: PaymentObject, ...errorResponses(MERCADO_PAGO_SHAPE, [400, 403, 409, 413, 415, 423, 500, 503]) } },
  }, async (request, reply) => {
    const account = accountOf(request)
    // Its PolicyAgent refuses before anything else is read.
    const scenarios = appliedScenarios(request, reply, 'cash-in', account.id)
    if (hasScenario(scenarios, 'POLICY_AGENT_UNAUTHORIZED')) throw policyUnauthorized()
    const key = idempotencyKey(request)
    const digest = requestDigest(request.body)
    const ref = `mp-idempotency:${account.id}:${key}`
    hold(ref, reply)
    const replay = (): Transaction | undefined => {
      const earlier = sb.store.transactionByRef(ref)
      if (earlier === undefined) return undefined
      if (paymentOf(earlier)?.requestDigest !== digest) throw idempotencyConflict()
      return earlier
    }
    // The same key and body: the same payment, nothing made again and nothing notified.
    const earlier = replay()
    if (earlier !== undefined) return reply.status(201).send(await one(request, account, earlier))
    const input = readPaymentRequest(request.body, sb.clock.now())
    if (hasScenario(scenarios, 'PROVIDER_UNAVAILABLE')) throw new Refusal('INTERNAL_ERROR', 'Internal server error')
    if (hasScenario(scenarios, 'PROVIDER_EXPIRATION_BELOW_MINIMUM')) throw badRequest(7523, 'Invalid expiration date.')
    const trackingId = request.headers['x-tracking-id']
    const charge = sb.charges.createCodeCharge(account, {
      amountCents: input.amountCents,
      dueAt: input.expiresAt,
      ...(input.description !== undefined ? { description: input.description } : {}),
      // The account's key: its document, as API Pix's charges name it by default.
      key: account.document,
      expiringRefs: { refs: [ref], until: sb.clock.now() + IDEMPOTENCY_KEY_LIFETIME_MS },
      duplicate: () => { replay() },
      of: seq => {
        const paymentId = paymentIdOfSeq(seq)
        return {
          txid: txidOfPayment(paymentId),
          mercadoPago: {
            paymentId,
            payer: {
              id: guestPayerId(account.id, input.email),
              email: input.email,
              ...(input.firstName !== undefined ? { firstName: input.firstName } : {}),
              ...(input.lastName !== undefined ? { lastName: input.lastName } : {}),
              ...(input.identification !== undefined ? { identification: input.identification } : {}),
            },
            ...(input.externalReference !== undefined ? { externalReference: input.externalReference } : {}),
            ...(input.notificationUrl !== undefined ? { notificationUrl: input.notificationUrl } : {}),
            ...(input.statementDescriptor !== undefined ? { statementDescriptor: input.statementDescriptor } : {}),
            metadata: input.metadata,
            ...(input.additionalInfo !== undefined ? { additionalInfo: input.additionalInfo } : {}),
            trackingId: typeof trackingId === 'string' ? trackingId.slice(0, 200) : 'platform:v1-whitelabel,so:ALL,type:N/A,security:none',
            ticketHash: sb.rng.uuid(),
            idempotencyKey: key,
            requestDigest: digest,
            expiresAt: new Date(input.expiresAt).toISOString(),
          },
        }
      },
    }, scenarios)
    return reply.status(201).send(await one(request, account, charge))
  })

  app.get('/v1/payments/search', {
    schema: {
      operationId: 'mercadoPagoSearchPayments',
      tags: TAGS,
      summary: 'Search the account\'s payments',
      querystring: Type.Object(Object.fromEntries(SEARCH_PARAMETERS.map(name => [name, Type.Optional(Type.String({ maxLength: 200 }))])), { additionalProperties: true }),
      response: { 200: SearchAnswer, ...errorResponses(MERCADO_PAGO_SHAPE, [400]) },
    },
  }, async (request, reply) => {
    const account = accountOf(request)
    appliedScenarios(request, reply, 'cob-query', account.id)
    // The account's payments from the charges' lists of them (by account, by external_reference, by payer, by stage, by date), a page read as one where it can; each one's refunds from the refunds' index.
    const source: PaymentSource = {
      all: of => sb.charges.codeChargesOf(account.id, of),
      page: (reference, created, offset, limit, newestFirst) => {
        const page = sb.charges.codeChargesMade(account.id, reference, created, offset, limit, newestFirst)
        return page === undefined ? undefined : { total: page.total, results: page.charges }
      },
      pageIn: (stages, reference, created, offset, limit, newestFirst) => {
        const page = sb.charges.codeChargesMadeIn(account.id, stages, reference, created, offset, limit, newestFirst)
        return page === undefined ? undefined : { total: page.total, results: page.charges }
      },
      pageBy: (instant, range, offset, limit, newestFirst) => {
        const page = sb.charges.codeChargesBy(account.id, instant, range, offset, limit, newestFirst)
        return { total: page.total, results: page.charges }
      },
      within: (instant, range) => sb.charges.codeChargesWithin(account.id, instant, range),
      refundsOf,
    }
    const found = searchPayments(source, request.query as SearchQuery, sb.clock.now(), account.mercadoPago?.userId ?? 0)
    return { paging: { total: found.total, limit: found.limit, offset: found.offset }, results: await paymentViews(sb, request, account, found.results, refundsOf) }
  })

  app.get('/v1/payments/:id', {
    schema: { operationId: 'mercadoPagoGetPayment', tags: TAGS, summary: 'A payment', params: Id, response: { 200: PaymentObject, ...errorResponses(MERCADO_PAGO_SHAPE, [404]) } },
  }, async (request, reply) => {
    const account = accountOf(request)
    appliedScenarios(request, reply, 'cob-query', account.id)
    return one(request, account, findPayment(sb, account, request.params.id))
  })

  app.put('/v1/payments/:id', {
    schema: { operationId: 'mercadoPagoUpdatePayment', tags: TAGS, summary: 'Cancel a pending payment ({"status":"cancelled"}), or move its expiry ({"date_of_expiration": ...})', params: Id, body: AnyBody, response: { 200: PaymentObject, ...errorResponses(MERCADO_PAGO_SHAPE, [400, 404, 413, 415]) } },
  }, async (request, reply) => {
    const account = accountOf(request)
    const tx = findPayment(sb, account, request.params.id)
    appliedScenarios(request, reply, 'cob-cancel', account.id)
    const body = request.body
    const { status, date_of_expiration: expiration } = typeof body === 'object' && body !== null ? body as { status?: unknown, date_of_expiration?: unknown } : {}
    // A new date_of_expiration alone moves a pending payment's expiry; with a status, the status decides.
    if ((status === undefined || status === null) && expiration !== undefined && expiration !== null) {
      const expiresAt = readExpiration(expiration, sb.clock.now())
      if (tx.status !== 'PENDING') throw badRequest(2018, 'The action requested is not valid for the current payment state.')
      return one(request, account, sb.charges.moveExpiry(tx, expiresAt))
    }
    if (status === undefined || status === null) throw badRequest(4017, 'Status attribute can\'t be null.')
    if (status !== 'cancelled' || tx.status !== 'PENDING') throw badRequest(2018, 'The action requested is not valid for the current payment state.')
    return one(request, account, sb.charges.cancelCharge(tx))
  })

  const createRefund = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const account = accountOf(request)
    const scenarios = appliedScenarios(request, reply, 'refund-in', account.id)
    if (hasScenario(scenarios, 'POLICY_AGENT_UNAUTHORIZED')) throw policyUnauthorized()
    const key = idempotencyKey(request)
    const tx = findPayment(sb, account, request.params.id)
    const ref = `mp-refund:${tx.id}:${key}`
    hold(ref, reply)
    const body = request.body
    const asked = typeof body === 'object' && body !== null ? (body as { amount?: unknown }).amount : undefined
    let askedCents: number | undefined
    if (asked !== undefined && asked !== null) {
      if (typeof asked !== 'number') throw badRequest(4041, 'amount attribute must be numeric')
      if (asked <= 0) throw badRequest(4040, 'amount attribute must be positive')
      const parsed = parseAmount(asked)
      if (!parsed.ok) throw badRequest(4041, 'amount attribute must be numeric')
      askedCents = parsed.cents
    }
    const received = receivedOf(tx)
    // The same key on the same payment within its 24 h: the same refund, if it asked the same.
    const earlier = sb.store.transactionByRef(ref)
    if (earlier !== undefined) {
      if (askedCents !== undefined && askedCents !== earlier.amountCents) throw idempotencyConflict()
      return answerRefund(request, reply, earlier, tx, account)
    }
    const remaining = received === undefined ? 0 : sb.refunds.remainingCents(tx)
    if (received === undefined || remaining === 0) throw badRequest(2063, 'The action requested is not valid for the current payment state')
    const cents = askedCents ?? remaining
    if (cents > remaining) throw badRequest(4042, 'Refund amount exceeds the refundable amount')
    let refund: Transaction
    try {
      refund = sb.store.transact(() => {
        const made = sb.refunds.refundIn(account, tx.id, { refundValue: centsToNumber(cents) }, scenarios, REFUND_DEADLINE_DAYS, { refs: [ref], until: sb.clock.now() + IDEMPOTENCY_KEY_LIFETIME_MS })
        // A Pix refund is approved at once, unless a scenario holds (REFUND_DELAY) or refuses (REFUND_FAILED) it: then in_process.
        if (!hasScenario(scenarios, 'REFUND_DELAY') && !hasScenario(scenarios, 'REFUND_FAILED')) sb.refunds.settleNow(made)
        return made
      })
    } catch (err) {
      if (err instanceof Refusal && err.code === 'PIX_INSUFFICIENT_BALANCE') throw badRequest(4043, 'Insufficient balance to refund')
      if (err instanceof Refusal && err.code === 'REFUND_DEADLINE_EXCEEDED') throw badRequest(2024, 'Payment too old to be refunded')
      if (err instanceof Refusal && err.code === 'REFUND_AMOUNT_EXCEEDS_ORIGINAL') throw badRequest(4042, 'Refund amount exceeds the refundable amount')
      throw err
    }
    return answerRefund(request, reply, sb.store.transaction(refund.id)!, tx, account)
  }

  /** A refund made or replayed: 201 with it, or, held in process for a client that did not ask to see that, the 400 production answers (the refund goes on). */
  const answerRefund = (request: FastifyRequest, reply: FastifyReply, refund: Transaction, payment: Transaction, account: Account) => {
    if (isRefundInProcess(refund) && !rendersInProcess(request)) throw refundInProcess()
    return reply.status(201).send(refundView(refund, paymentOf(payment)!, account))
  }

  /** A payment's refunds as the request may see them: without the header, those in process are hidden. */
  const shownRefunds = (request: FastifyRequest, tx: Transaction): Transaction[] =>
    rendersInProcess(request) ? refundsOf(tx) : refundsOf(tx).filter(r => !isRefundInProcess(r))

  app.post('/v1/payments/:id/refunds', {
    schema: { operationId: 'mercadoPagoCreateRefund', tags: TAGS, summary: 'Refund a payment, in full (no amount) or in part', params: Id, body: AnyBody, response: { 201: RefundObject, ...errorResponses(MERCADO_PAGO_SHAPE, [400, 403, 404, 409, 413, 415, 423]) } },
  }, createRefund)

  app.get('/v1/payments/:id/refunds', {
    schema: { operationId: 'mercadoPagoListRefunds', tags: TAGS, summary: 'A payment\'s refunds, oldest first (also with a trailing slash)', params: Id, response: { 200: Type.Array(RefundObject), ...errorResponses(MERCADO_PAGO_SHAPE, [404]) } },
  }, async (request, reply) => {
    const account = accountOf(request)
    const tx = findPayment(sb, account, request.params.id)
    appliedScenarios(request, reply, 'devolucao-query', account.id)
    return shownRefunds(request, tx).map(r => refundView(r, paymentOf(tx)!, account))
  })

  app.get('/v1/payments/:id/refunds/:refundId', {
    schema: { operationId: 'mercadoPagoGetRefund', tags: TAGS, summary: 'One refund of a payment', params: RefundParams, response: { 200: RefundObject, ...errorResponses(MERCADO_PAGO_SHAPE, [404]) } },
  }, async (request, reply) => {
    const account = accountOf(request)
    const tx = findPayment(sb, account, request.params.id)
    appliedScenarios(request, reply, 'devolucao-query', account.id)
    const refund = shownRefunds(request, tx).find(r => String(REFUND_ID_BASE + r.seq) === request.params.refundId)
    if (refund === undefined) throw refundNotFound()
    return refundView(refund, paymentOf(tx)!, account)
  })
}

export default routes
