import type { RoutesPlugin } from '../../route-plugin.js'
import { constants } from 'node:buffer'
import { getHeapStatistics } from 'node:v8'
import { Type } from '@sinclair/typebox'
import { Refusal, invalidRequest } from '../../errors/refusal.js'
import { parseInstant, SANDBOX_TIME_BOUNDS, SANDBOX_TIME_RANGE } from '../../domain/instant.js'
import { errorResponses } from '../../schemas/common.js'
import { readDocument } from '../../store/document.js'
import { STATE_FORMAT, STATE_FORMAT_VERSION } from '../../store/state.js'
import { ClockAdvanceBody, ClockSetBody, ClockView, HealthUnavailable, HealthView, ResetBody, ResetView, SnapshotBody, SnapshotImported, SnapshotView } from '../../schemas/sandbox.js'
import { NextDebitBody, NextDebitParams, NextDebitView, NextDueBody, NextDueView } from '../../dialects/api-pix/schemas/cobr.js'
import { mayControl } from './admin.js'
import { SANDBOX_SHAPE } from './errors.js'

/**
 * The largest snapshot import, in bytes (every other body: 1 MB, app.ts). A body is read into one
 * string before JSON.parse, and a body at V8's longest string (`constants.MAX_STRING_LENGTH`, 2^29 - 24
 * characters) threw out of the process instead of answering 413: the limit stays at half of it. And
 * JSON.parse makes up to about 15 bytes of heap of a byte of text (`[[],[],…]`, an array every 3 bytes),
 * so a body gets at most a 32nd of the heap this process may grow to (128 MB of a 4 GB heap;
 * `--max-old-space-size` raises it): a refused body is a 413, never a process out of memory.
 */
export const SNAPSHOT_BODY_LIMIT = Math.floor(Math.min(constants.MAX_STRING_LENGTH / 2, getHeapStatistics().heap_size_limit / 32))

/** Health, reset, clock (and the next debit of a recurring charge) and snapshot. */
const systemRoutes: RoutesPlugin = async (app) => {
  const sb = app.sandbox
  const clockView = () => {
    const next = sb.scheduler.nextDueAt()
    return { ...sb.clock.state(), pendingJobs: sb.scheduler.pending(), nextJobAt: next === null ? null : new Date(next).toISOString() }
  }

  const outOfRange = (target: number): Refusal => {
    const at = Number.isFinite(target) && Math.abs(target) < 8.64e15 ? new Date(target).toISOString() : String(target)
    return new Refusal('CLOCK_OUT_OF_RANGE', `Sandbox time must stay within ${SANDBOX_TIME_RANGE}, where every date it makes (an endToEndId's year, a refund deadline) stays representable; ${at} is outside`, {
      details: { ...SANDBOX_TIME_BOUNDS },
    })
  }

  app.get('/health', {
    schema: {
      operationId: 'sandboxHealth',
      tags: ['Sandbox'],
      summary: 'Readiness: 200 once the state is loaded and routes are ready; 503 while starting, or degraded (the data file cannot be written)',
      response: { 200: HealthView, 503: HealthUnavailable },
    },
  }, async (request, reply) => {
    if (!sb.ready) return reply.status(503).send({ status: 'starting' as const })
    const now = new Date(sb.clock.now()).toISOString()
    // Health stays open for container probes; the seed reproduces ids and faults, so it is the control plane's.
    const seed = mayControl(request, sb.config.adminToken) ? { seed: sb.seed } : {}
    const health = sb.store.health()
    if (health.status === 'degraded') {
      return reply.status(503).send({ status: 'degraded' as const, reason: health.reason, since: new Date(health.since).toISOString(), version: sb.version, ...seed, now })
    }
    return { status: 'ok' as const, version: sb.version, ...seed, now }
  })

  app.post('/reset', {
    schema: {
      operationId: 'sandboxReset',
      tags: ['Sandbox'],
      summary: 'Reset the whole sandbox to its fixtures, or one account to its first state',
      description: 'A full reset starts the clock where --clock-start and --clock say, or where `clockStart` and `clock` say for this reset alone: ' +
        'the way back to an earlier date, since the clock otherwise only moves forward (POST /clock/set refuses an earlier instant with CLOCK_BACKWARDS).',
      body: Type.Optional(ResetBody),
      response: { 200: ResetView, ...errorResponses(SANDBOX_SHAPE, [400, 404]) },
    },
  }, async (request) => {
    const { accountId, clockStart, clock } = request.body ?? {}
    if (accountId !== undefined) {
      if (clockStart !== undefined || clock !== undefined) {
        throw invalidRequest('clockStart and clock start the clock of a full reset, and the clock is every account\'s: leave out accountId to reset everything, or leave them out to reset the account')
      }
      const account = sb.accounts.require(accountId)
      sb.accounts.reset(account)
      return { reset: accountId }
    }
    let at: number | undefined
    if (clockStart !== undefined) {
      const start = parseInstant(clockStart)
      if (start === null) throw invalidRequest(`clockStart must be an ISO 8601 instant with its offset, such as 2026-03-10T12:00:00-03:00 (not ${JSON.stringify(clockStart)})`)
      if (!sb.clock.accepts(start)) throw outOfRange(start)
      at = start
    }
    sb.reset({ at, frozen: clock === undefined ? undefined : clock === 'frozen' })
    return { reset: 'all' as const }
  })

  app.get('/clock', { schema: { operationId: 'sandboxGetClock', tags: ['Sandbox'], summary: 'The sandbox clock', response: { 200: ClockView } } }, async () => clockView())

  app.post('/clock/advance', {
    schema: {
      operationId: 'sandboxAdvanceClock',
      tags: ['Sandbox'],
      summary: 'Move the clock forward, running every timed effect due on the way, in order, before answering',
      body: ClockAdvanceBody,
      response: { 200: ClockView, ...errorResponses(SANDBOX_SHAPE, [400]) },
    },
  }, async (request) => sb.scheduler.move(async () => {
    const target = sb.clock.now() + request.body.ms
    if (!sb.clock.accepts(target)) throw outOfRange(target)
    await sb.scheduler.advanceTo(target)
    return clockView()
  }))

  app.post('/clock/set', {
    schema: {
      operationId: 'sandboxSetClock',
      tags: ['Sandbox'],
      summary: 'Move the clock to an instant (forward only), running what falls due',
      body: ClockSetBody,
      response: { 200: ClockView, ...errorResponses(SANDBOX_SHAPE, [400]) },
    },
  }, async (request) => {
    const target = parseInstant(request.body.now)
    if (target === null) throw invalidRequest(`now must be an ISO 8601 instant with real date and time fields, such as 2026-03-10T12:00:00Z (not ${JSON.stringify(request.body.now)})`)
    if (!sb.clock.accepts(target)) throw outOfRange(target)
    return sb.scheduler.move(async () => {
      // Checked once the moves before it have ended: a jump under way may have passed the instant.
      if (target < sb.clock.now()) {
        const now = new Date(sb.clock.now()).toISOString()
        const wanted = new Date(target).toISOString()
        // A reset is the only way back, and one to the settings' start may not go back far enough: name the one that does.
        throw new Refusal('CLOCK_BACKWARDS', `The sandbox clock only moves forward: it is at ${now}, and ${wanted} is earlier. ` +
          `To go back, start over there: POST /__sandbox/reset with {"clockStart": "${wanted}"} (pix-sandbox reset --clock-start ${wanted}) resets the whole sandbox with its clock at that instant; ` +
          '--clock-start (SANDBOX_CLOCK_START) sets where the clock of every start and plain reset begins', { details: { now, requested: wanted } })
      }
      await sb.scheduler.advanceTo(target)
      return clockView()
    })
  })

  app.post('/clock/freeze', { schema: { operationId: 'sandboxFreezeClock', tags: ['Sandbox'], summary: 'Stop the clock: nothing settles until it is advanced or resumed', response: { 200: ClockView } } }, async () => sb.scheduler.move(async () => {
    sb.clock.freeze()
    await sb.scheduler.runDue()
    return clockView()
  }))

  app.post('/clock/resume', { schema: { operationId: 'sandboxResumeClock', tags: ['Sandbox'], summary: 'Let the clock run again from where it stood', response: { 200: ClockView } } }, async () => sb.scheduler.move(async () => {
    sb.clock.resume()
    await sb.scheduler.runDue()
    return clockView()
  }))

  // ---- Pix Automático on the virtual clock (docs/api-pix.md, "Recurring charges") ----

  app.post('/clock/next-due', {
    schema: {
      operationId: 'sandboxAdvanceToNextDue',
      tags: ['Sandbox'],
      summary: 'Move the clock to the next debit of a live recurring charge (of one account, when given), running it and everything due before it',
      body: NextDueBody,
      response: { 200: NextDueView, ...errorResponses(SANDBOX_SHAPE, [400]) },
    },
  }, async (request) => sb.scheduler.move(async () => {
    const next = sb.cobrs.nextDebit(request.body.accountId)
    if (next === null) return { clock: clockView(), debit: null }
    const at = Date.parse(next.at)
    if (at > sb.clock.now()) await sb.scheduler.advanceTo(at)
    else await sb.scheduler.runDue()
    const after = sb.cobrs.find(next.accountId, next.txid)
    return { clock: clockView(), debit: { ...next, status: after?.status ?? 'CANCELADA' } }
  }))

  app.post('/accounts/:id/cobr/:txid/next-debit', {
    schema: {
      operationId: 'sandboxForceNextDebit',
      tags: ['Sandbox'],
      summary: 'Force what the next debit of a live recurring charge comes to, whatever its scenarios and the payer\'s simulation say',
      params: NextDebitParams,
      body: NextDebitBody,
      response: { 200: NextDebitView, ...errorResponses(SANDBOX_SHAPE, [400, 404, 409]) },
    },
  }, async (request) => {
    const { id, txid } = request.params
    sb.accounts.require(id)
    const cobr = sb.cobrs.forceNextDebit(id, txid, request.body.outcome, request.body.codigo)
    return { accountId: id, txid, status: cobr.status, nextDebit: cobr.proximoDebito!, dueAt: cobr.dueAt ?? null }
  })

  app.get('/snapshot', {
    schema: { operationId: 'sandboxExportSnapshot', tags: ['Sandbox'], summary: 'Export the whole state as one JSON document', response: { 200: SnapshotView } },
  }, async () => sb.exportState())

  app.put('/snapshot', {
    bodyLimit: SNAPSHOT_BODY_LIMIT,
    schema: {
      operationId: 'sandboxImportSnapshot',
      tags: ['Sandbox'],
      summary: 'Replace the whole state with an exported snapshot',
      description: `The document is checked whole before anything is replaced: its format marker ("format": "${STATE_FORMAT}", formatVersion ${STATE_FORMAT_VERSION}; ` +
        'an export of the previous format, schemaVersion 1, is read too), the shape of every record and the references between them. ' +
        'A refused document answers 400 with the problems listed in details.problems and changes nothing. The clock goes back to the exported instant.',
      body: SnapshotBody,
      response: { 200: SnapshotImported, ...errorResponses(SANDBOX_SHAPE, [400]) },
    },
  }, async (request) => {
    const read = await readDocument(request.body)
    if (!read.ok) {
      const what = read.kind === 'foreign' ? 'This is not a pix-sandbox snapshot' : read.kind === 'newer' ? 'This snapshot comes from a newer pix-sandbox' : 'This snapshot has problems'
      throw invalidRequest(`${what}; nothing was imported: ${read.problems.join('; ')}`, { details: { problems: read.problems } })
    }
    sb.replaceState(read)
    return { accounts: Object.keys(sb.store.data.accounts).length, transactions: Object.keys(sb.store.data.transactions).length }
  })
}

export default systemRoutes
