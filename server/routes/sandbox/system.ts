import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { ApiError } from '../../errors/api-error.js'
import { errorResponses } from '../../schemas/common.js'
import { ClockAdvanceBody, ClockSetBody, ClockView, HealthStarting, HealthView, RequestList, RequestListQuery, ResetBody, ResetView, SnapshotBody, SnapshotImported, SnapshotView } from '../../schemas/sandbox.js'
import { emptyState, type State } from '../../store/state.js'

/** Health, reset, clock, snapshot and the request journal. */
const systemRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const sb = app.sandbox
  const clockView = () => {
    const next = sb.scheduler.nextDueAt()
    return { ...sb.clock.state(), pendingJobs: sb.scheduler.pending(), nextJobAt: next === null ? null : new Date(next).toISOString() }
  }

  app.get('/health', {
    schema: {
      operationId: 'sandboxHealth',
      tags: ['Sandbox'],
      summary: 'Readiness: 200 only once the state is loaded and routes are ready',
      response: { 200: HealthView, 503: HealthStarting },
    },
  }, async (_request, reply) => {
    if (!sb.ready) return reply.status(503).send({ status: 'starting' as const })
    return { status: 'ok' as const, version: sb.version, seed: sb.seed, now: new Date(sb.clock.now()).toISOString() }
  })

  app.post('/reset', {
    schema: {
      operationId: 'sandboxReset',
      tags: ['Sandbox'],
      summary: 'Reset the whole sandbox to its fixtures, or one account to its first state',
      body: Type.Optional(ResetBody),
      response: { 200: ResetView, ...errorResponses('sandbox', [404]) },
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

  app.get('/clock', { schema: { operationId: 'sandboxGetClock', tags: ['Sandbox'], summary: 'The sandbox clock', response: { 200: ClockView } } }, async () => clockView())

  app.post('/clock/advance', {
    schema: {
      operationId: 'sandboxAdvanceClock',
      tags: ['Sandbox'],
      summary: 'Move the clock forward, running every timed effect due on the way, in order, before answering',
      body: ClockAdvanceBody,
      response: { 200: ClockView },
    },
  }, async (request) => {
    await sb.scheduler.advance(request.body.ms)
    await sb.store.commit()
    return clockView()
  })

  app.post('/clock/set', {
    schema: {
      operationId: 'sandboxSetClock',
      tags: ['Sandbox'],
      summary: 'Move the clock to an instant (forward only), running what falls due',
      body: ClockSetBody,
      response: { 200: ClockView, ...errorResponses('sandbox', [400]) },
    },
  }, async (request) => {
    const target = Date.parse(request.body.now)
    if (target < sb.clock.now()) throw new ApiError(400, 'CLOCK_BACKWARDS', 'O relógio do sandbox só anda para a frente; use reset para recomeçar')
    await sb.scheduler.advanceTo(target)
    await sb.store.commit()
    return clockView()
  })

  app.post('/clock/freeze', { schema: { operationId: 'sandboxFreezeClock', tags: ['Sandbox'], summary: 'Stop the clock: nothing settles until it is advanced or resumed', response: { 200: ClockView } } }, async () => {
    sb.clock.freeze()
    await sb.scheduler.runDue()
    return clockView()
  })

  app.post('/clock/resume', { schema: { operationId: 'sandboxResumeClock', tags: ['Sandbox'], summary: 'Let the clock run again from where it stood', response: { 200: ClockView } } }, async () => {
    sb.clock.resume()
    await sb.scheduler.runDue()
    return clockView()
  })

  app.get('/snapshot', {
    schema: { operationId: 'sandboxExportSnapshot', tags: ['Sandbox'], summary: 'Export the whole state as one JSON document', response: { 200: SnapshotView } },
  }, async () => sb.store.snapshot())

  app.put('/snapshot', {
    bodyLimit: 512 * 1024 * 1024,
    schema: {
      operationId: 'sandboxImportSnapshot',
      tags: ['Sandbox'],
      summary: 'Replace the whole state with an exported snapshot',
      body: SnapshotBody,
      response: { 200: SnapshotImported, ...errorResponses('sandbox', [400]) },
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
      operationId: 'sandboxListRequests',
      tags: ['Sandbox'],
      summary: 'Recent requests, newest first (no headers or bodies are kept)',
      querystring: RequestListQuery,
      response: { 200: RequestList },
    },
  }, async (request) => ({ requests: sb.journal.list(request.query) }))
}

export default systemRoutes
