import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { ApiError } from '../../errors/api-error.js'
import { errorResponses } from '../../schemas/common.js'
import { emptyState, type State } from '../../store/state.js'
import { mayControl } from './admin.js'

const Clock = Type.Object({
  now: Type.String({ format: 'date-time' }),
  frozen: Type.Boolean(),
  offsetMs: Type.Number({ description: 'sandbox time minus wall time' }),
  pendingJobs: Type.Integer({ description: 'timed effects waiting on the clock' }),
  nextJobAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
})

/** Health, reset, clock, snapshot and the request journal. */
const systemRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const sb = app.sandbox
  const clockView = () => {
    const next = sb.scheduler.nextDueAt()
    return { ...sb.clock.state(), pendingJobs: sb.scheduler.pending(), nextJobAt: next === null ? null : new Date(next).toISOString() }
  }

  app.get('/health', {
    schema: {
      tags: ['Sandbox'],
      summary: 'Readiness: 200 only once the state is loaded and routes are ready',
      response: {
        200: Type.Object({
          status: Type.Literal('ok'),
          version: Type.String(),
          seed: Type.Optional(Type.String({ description: 'Only for whoever may use the control plane (with SANDBOX_ADMIN_TOKEN set, only with the admin token)' })),
          now: Type.String({ format: 'date-time' }),
        }),
        503: Type.Object({ status: Type.Literal('starting') }),
      },
    },
  }, async (request, reply) => {
    if (!sb.ready) return reply.status(503).send({ status: 'starting' as const })
    const now = new Date(sb.clock.now()).toISOString()
    // Health stays open for container probes; the seed reproduces ids and faults, so it is the control plane's.
    if (!mayControl(request, sb.config.adminToken)) return { status: 'ok' as const, version: sb.version, now }
    return { status: 'ok' as const, version: sb.version, seed: sb.seed, now }
  })

  app.post('/reset', {
    schema: {
      tags: ['Sandbox'],
      summary: 'Reset the whole sandbox to its fixtures, or one account to its first state',
      body: Type.Optional(Type.Object({ accountId: Type.Optional(Type.Integer({ minimum: 1 })) })),
      response: { 200: Type.Object({ reset: Type.Union([Type.Literal('all'), Type.Integer()]) }), ...errorResponses('sandbox', [404]) },
    },
  }, async (request) => {
    const accountId = request.body?.accountId
    if (accountId !== undefined) {
      const account = sb.accounts.require(accountId)
      sb.accounts.reset(account)
      await sb.store.commit()
      return { reset: accountId }
    }
    sb.scheduler.clear()
    sb.store.replace(emptyState())
    sb.accounts.seedFixtures()
    sb.journal.clear()
    for (const hook of sb.onReset) hook()
    await sb.store.commit()
    return { reset: 'all' as const }
  })

  app.get('/clock', { schema: { tags: ['Sandbox'], summary: 'The sandbox clock', response: { 200: Clock } } }, async () => clockView())

  app.post('/clock/advance', {
    schema: {
      tags: ['Sandbox'],
      summary: 'Move the clock forward, running every timed effect due on the way, in order, before answering',
      body: Type.Object({ ms: Type.Integer({ minimum: 0, maximum: 10 * 365 * 86_400_000 }) }),
      response: { 200: Clock },
    },
  }, async (request) => {
    await sb.scheduler.advance(request.body.ms)
    await sb.store.commit()
    return clockView()
  })

  app.post('/clock/set', {
    schema: {
      tags: ['Sandbox'],
      summary: 'Move the clock to an instant (forward only), running what falls due',
      body: Type.Object({ now: Type.String({ format: 'date-time' }) }),
      response: { 200: Clock, ...errorResponses('sandbox', [400]) },
    },
  }, async (request) => {
    const target = Date.parse(request.body.now)
    if (target < sb.clock.now()) throw new ApiError(400, 'CLOCK_BACKWARDS', 'O relógio do sandbox só anda para a frente; use reset para recomeçar')
    await sb.scheduler.advanceTo(target)
    await sb.store.commit()
    return clockView()
  })

  app.post('/clock/freeze', { schema: { tags: ['Sandbox'], summary: 'Stop the clock: nothing settles until it is advanced or resumed', response: { 200: Clock } } }, async () => {
    sb.clock.freeze()
    await sb.scheduler.runDue()
    return clockView()
  })

  app.post('/clock/resume', { schema: { tags: ['Sandbox'], summary: 'Let the clock run again from where it stood', response: { 200: Clock } } }, async () => {
    sb.clock.resume()
    await sb.scheduler.runDue()
    return clockView()
  })

  app.get('/snapshot', {
    schema: { tags: ['Sandbox'], summary: 'Export the whole state as one JSON document', response: { 200: Type.Object({ schemaVersion: Type.Literal(1) }, { additionalProperties: true }) } },
  }, async () => sb.store.snapshot())

  app.put('/snapshot', {
    bodyLimit: 512 * 1024 * 1024,
    schema: {
      tags: ['Sandbox'],
      summary: 'Replace the whole state with an exported snapshot',
      body: Type.Object({
        schemaVersion: Type.Literal(1),
        seq: Type.Record(Type.String(), Type.Integer()),
        accounts: Type.Record(Type.String(), Type.Object({}, { additionalProperties: true })),
        transactions: Type.Record(Type.String(), Type.Object({}, { additionalProperties: true })),
        directory: Type.Record(Type.String(), Type.Object({}, { additionalProperties: true })),
      }, { additionalProperties: true }),
      response: { 200: Type.Object({ accounts: Type.Integer(), transactions: Type.Integer() }), ...errorResponses('sandbox', [400]) },
    },
  }, async (request) => {
    sb.scheduler.clear()
    sb.store.replace(request.body as unknown as State)
    for (const hook of sb.onLoad) hook()
    await sb.store.commit()
    return { accounts: Object.keys(sb.store.data.accounts).length, transactions: Object.keys(sb.store.data.transactions).length }
  })

  app.get('/requests', {
    schema: {
      tags: ['Sandbox'],
      summary: 'Recent requests, newest first (no headers or bodies are kept)',
      querystring: Type.Object({ accountId: Type.Optional(Type.Integer({ minimum: 1 })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })) }),
      response: {
        200: Type.Object({
          requests: Type.Array(Type.Object({
            requestId: Type.String(),
            at: Type.String(),
            method: Type.String(),
            path: Type.String(),
            statusCode: Type.Integer(),
            durationMs: Type.Number(),
            accountId: Type.Union([Type.Integer(), Type.Null()]),
            scenario: Type.Union([Type.String(), Type.Null()]),
          })),
        }),
      },
    },
  }, async (request) => ({ requests: sb.journal.list(request.query) }))
}

export default systemRoutes
