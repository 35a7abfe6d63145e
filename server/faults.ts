import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import type { Socket } from 'node:net'
import { Refusal, tooManyRequests } from './errors/refusal.js'
import { TIMEOUT_MAX_MS } from '../scenarios/transport.js'
import type { AppliedScenario, Endpoint } from '../scenarios/types.js'
import { appliedScenarios } from './applied-scenarios.js'

/**
 * Transport faults (scenarios/transport.ts): LATENCY, TIMEOUT, CONNECTION_RESET, RATE_LIMITED and
 * SERVICE_UNAVAILABLE, on every operation of the dialects. Each such route gets a preHandler that
 * resolves the request's scenarios (header or armed, once: the route reuses them) and carries out the
 * faults that come before the operation, and an onSend hook, after the commit point of app.ts, for those
 * that come after it (a delayed answer, a reset once the change is durable).
 *
 * A held or reset request never answers, so Fastify runs no onResponse for it: it is journaled through
 * the journal's own capture (journal/capture.ts), with status 0 (no answer). Held requests end when the app closes: a sandbox never waits 60 s to stop.
 */

type Done = (err?: Error) => void
type SendDone = (err: Error | null, payload?: unknown) => void

function faultOf (applied: readonly AppliedScenario[], ...names: string[]): AppliedScenario | undefined {
  return applied.find(a => names.includes(a.name))
}

/** A real reset (RST) where the socket can do it, so the client sees ECONNRESET; a plain close otherwise. */
function reset (request: FastifyRequest, reply: FastifyReply): void {
  const socket = request.raw.socket as Partial<Socket> | undefined
  if (typeof socket?.resetAndDestroy === 'function') {
    try {
      socket.resetAndDestroy()
      return
    } catch {}
  }
  if (typeof socket?.destroy === 'function') socket.destroy()
  // In process (app.inject) there is no socket to reset: the answer ends unanswered instead.
  else reply.raw.destroy()
}

export interface FaultOptions {
  /** The scenario endpoint of a route of a dialect; null for a route that takes no scenarios (scenarios/operations.ts). */
  endpointOf (route: RouteOptions): Endpoint | null
  /** The dialect whose operation a route is (its scenarios of its own apply there only). */
  dialectOf (route: RouteOptions): string | null
}

async function faultsPlugin (app: FastifyInstance, opts: FaultOptions): Promise<void> {
  const sb = app.sandbox
  app.decorateRequest('scenarios', undefined)
  /** What ends each held request now: TIMEOUT connections and LATENCY answers in flight. */
  const held = new Set<() => void>()
  app.addHook('preClose', (done) => {
    for (const release of [...held]) release()
    done()
  })

  const journalUnanswered = (request: FastifyRequest, reply: FastifyReply): void => app.journalUnanswered(request, reply)

  /** Faults that come before the operation: nothing of it is performed. */
  const before = (endpoint: Endpoint, dialect: string | null) => (request: FastifyRequest, reply: FastifyReply, done: Done): void => {
    let applied: AppliedScenario[]
    try {
      // A token request carries no bearer token: its account is the client it names.
      const accountId = request.account?.id ?? (endpoint === 'token' ? clientAccount(request) : null)
      applied = appliedScenarios(request, reply, endpoint, accountId, dialect)
    } catch (err) {
      return done(err as Error)
    }
    if (applied.length === 0) return done()
    const fault = faultOf(applied, 'SERVICE_UNAVAILABLE', 'RATE_LIMITED', 'TIMEOUT', 'CONNECTION_RESET')
    if (!fault || (fault.name === 'CONNECTION_RESET' && fault.params.after === 'commit')) return done()
    switch (fault.name) {
      case 'SERVICE_UNAVAILABLE':
        return done(new Refusal('SERVICE_UNAVAILABLE', 'Serviço indisponível no momento; nada foi processado', {
          userMessage: 'Serviço temporariamente indisponível. Tente novamente em instantes.',
        }))
      case 'RATE_LIMITED':
      {
        // As the MED list's own rate limit answers (docs/gateway.md §7.10), on every operation.
        const seconds = fault.params.retryAfter ? Number(fault.params.retryAfter) : 1
        void reply.header('retry-after', String(seconds))
        return done(tooManyRequests(seconds))
      }
      case 'CONNECTION_RESET':
        reply.hijack()
        journalUnanswered(request, reply)
        return reset(request, reply)
      case 'TIMEOUT': {
        reply.hijack()
        const socket = request.raw.socket
        const release = (): void => {
          clearTimeout(timer)
          held.delete(release)
          socket.off('close', release)
          journalUnanswered(request, reply)
          reset(request, reply)
        }
        const timer = setTimeout(release, fault.params.ms ? Number(fault.params.ms) : TIMEOUT_MAX_MS)
        // The client gave up: nothing left to hold.
        socket.once('close', release)
        held.add(release)
      }
    }
  }

  const clientAccount = (request: FastifyRequest): number | null => {
    const clientId = (request.body as { clientId?: unknown } | undefined)?.clientId
    return typeof clientId === 'string' ? sb.store.accountByClientId(clientId)?.id ?? null : null
  }

  /** Faults that come after the operation; app.ts's commit point has run, so the change is durable. */
  const after = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: SendDone): void => {
    const applied = request.scenarios
    if (!applied || applied.length === 0) return done(null, payload)
    if (faultOf(applied, 'CONNECTION_RESET')?.params.after === 'commit') {
      journalUnanswered(request, reply)
      return reset(request, reply)
    }
    const latency = faultOf(applied, 'LATENCY')
    if (!latency) return done(null, payload)
    const release = (): void => {
      clearTimeout(timer)
      held.delete(release)
      done(null, payload)
    }
    const timer = setTimeout(release, Number(latency.params.ms))
    held.add(release)
  }

  app.addHook('onRoute', (route) => {
    const endpoint = opts.endpointOf(route)
    if (!endpoint) return
    route.preHandler = [before(endpoint, opts.dialectOf(route)), ...[route.preHandler ?? []].flat()]
    route.onSend = [...[route.onSend ?? []].flat(), after]
  })
}

export default fp(faultsPlugin, { name: 'faults', dependencies: ['sandbox', 'auth', 'request-journal'] })
