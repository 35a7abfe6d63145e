import type { FastifyInstance, InjectOptions } from 'fastify'
import type { Test } from 'tap'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp, type BuildOptions } from '../../server/app.js'
import type { Config } from '../../server/config.js'
import { Store } from '../../server/store/store.js'
import type { DeepReadonly, State } from '../../server/store/state.js'
import type { WebhookEvent } from '../../server/webhooks/types.js'
import { senderWorkerScript } from './command-bundle.js'

/**
 * Test harness: an app with a memory store, a frozen clock at a fixed daytime instant (so the night
 * limit and dates are deterministic) and a fixed seed. No port is opened.
 */
export const T0 = '2026-03-10T15:00:00.000Z' // 12:00 in America/Sao_Paulo: daytime limits apply

export const fixtureAccount = {
  id: 1,
  clientId: 'pix-sandbox-client',
  clientSecret: 'pix-sandbox-secret-2026',
  certificate: readFileSync(new URL('../../fixtures/certs/default-client.crt.pem', import.meta.url), 'utf8'),
  privateKey: readFileSync(new URL('../../fixtures/certs/default-client.key.pem', import.meta.url), 'utf8'),
}

export async function buildTestApp (t: Test, config: Partial<Config> = {}, opts: Omit<BuildOptions, 'config'> = {}): Promise<FastifyInstance> {
  // PIX_TEST_PERSIST=1 runs any suite against a data file and checks, at the end of each test, that
  // the file and its journal reload to exactly the live state: it checks that the store's write API
  // journals every change it is given (records touched, added, removed; sequences; the replaced
  // state). The compaction floor keeps it to the journal.
  const persist = process.env.PIX_TEST_PERSIST === '1' && config.data === undefined
  const dir = persist ? mkdtempSync(join(tmpdir(), 'pix-persist-')) : undefined
  const app = await buildApp({
    // Webhook attempts go out from the command bundle's sender thread: the sources' starts tsx in each thread.
    senderScript: senderWorkerScript(),
    ...opts,
    ...(dir ? { store: { compactionFloorBytes: Infinity } } : {}),
    config: { seed: 'test-seed', clock: 'frozen', clockStart: T0, settlementDelayMs: 50, ...config, ...(dir ? { data: join(dir, 'state.json') } : {}) },
  })
  checkDeclaredStatuses(t, app)
  t.teardown(async () => {
    if (dir) {
      // A webhook attempt may end (and change its delivery) while the file is read back: compare
      // again after a moment. A change the store was not told about differs every time.
      let difference: string | null = null
      for (let i = 0; i < 5; i++) {
        await app.sandbox.store.flush()
        const live = JSON.parse(JSON.stringify(app.sandbox.store.data)) as State
        await app.sandbox.store.commit()
        const reloaded = new Store({ file: join(dir, 'state.json') })
        await reloaded.open()
        difference = firstDifference(live, reloaded.data)
        if (!difference) break
        await new Promise(resolve => setTimeout(resolve, 50))
      }
      await app.close()
      rmSync(dir, { recursive: true, force: true })
      if (difference) throw new Error(`the data file does not reload to the live state: ${difference}`)
    } else {
      await app.close()
    }
  })
  return app
}

/** The first record (collection/id) whose persisted form differs from the live one, if any. */
export function firstDifference (live: DeepReadonly<State>, persisted: DeepReadonly<State>): string | null {
  for (const key of Object.keys(live) as Array<keyof State>) {
    const a = live[key] as unknown
    const b = persisted[key] as unknown
    if (typeof a !== 'object' || a === null) {
      if (JSON.stringify(a) !== JSON.stringify(b)) return `${key}: ${JSON.stringify(b)} instead of ${JSON.stringify(a)}`
      continue
    }
    const ids = new Set([...Object.keys(a), ...Object.keys(b as object)])
    for (const id of ids) {
      const x = JSON.stringify((a as Record<string, unknown>)[id])
      const y = JSON.stringify((b as Record<string, unknown>)[id])
      if (x !== y) return `${key}/${id}: ${y} instead of ${x}`
    }
  }
  return null
}

export const certHeader = (pem: string): string => encodeURIComponent(pem)

export async function tokenFor (app: FastifyInstance, creds: { clientId: string, clientSecret: string, certificate: string } = fixtureAccount): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/token',
    headers: { 'x-ssl-client-cert': certHeader(creds.certificate) },
    payload: { clientId: creds.clientId, clientSecret: creds.clientSecret },
  })
  if (res.statusCode !== 201) throw new Error(`token failed: ${res.statusCode} ${res.body}`)
  return res.json().access_token
}

export interface CreatedAccount {
  accountId: number
  clientId: string
  clientSecret: string
  certificate: string
  privateKey: string
  token: string
}

/** Creates an isolated account through the control plane and gets its token. */
export async function newAccount (app: FastifyInstance, settings: Record<string, unknown> = {}): Promise<CreatedAccount> {
  const res = await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: settings })
  if (res.statusCode !== 201) throw new Error(`account failed: ${res.statusCode} ${res.body}`)
  const a = res.json()
  return { ...a, token: await tokenFor(app, a) }
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` })

/**
 * For an account whose API Pix webhooks name receivers nobody runs (example domains): its check of a
 * receiver's mutual TLS is off, as a user without a receiver turns it (docs/webhooks.md, mutual TLS).
 * `NO_MTLS_CHECK` at creation; `noMtlsCheck` for an account that exists (the fixture account).
 */
export const NO_MTLS_CHECK = { webhookMtlsCheck: false } as const
export async function noMtlsCheck (app: FastifyInstance, accountId: number): Promise<void> {
  const res = await app.inject({ method: 'PATCH', url: `/__sandbox/accounts/${accountId}`, payload: NO_MTLS_CHECK })
  if (res.statusCode !== 200) throw new Error(`PATCH /__sandbox/accounts/${accountId} failed: ${res.statusCode} ${res.body}`)
}

/** Available and blocked balance in BRL, read through the control plane. */
export async function balanceOf (app: FastifyInstance, accountId: number): Promise<{ available: number, blocked: number, invariantHolds: boolean }> {
  const res = await app.inject({ method: 'GET', url: `/__sandbox/accounts/${accountId}` })
  const a = res.json()
  return { available: a.balance.available, blocked: a.balance.blocked, invariantHolds: a.invariantHolds }
}

/**
 * Records what the services hand to the webhook capability (the payloads an integrator would
 * receive), whether or not a receiver is registered, and still lets them through.
 */
export function recordEmits (app: FastifyInstance): WebhookEvent[] {
  const emitted: WebhookEvent[] = []
  const webhooks = app.sandbox.webhooks
  const original = webhooks.emit.bind(webhooks)
  webhooks.emit = (event: WebhookEvent) => {
    emitted.push(structuredClone(event))
    return original(event)
  }
  return emitted
}

/** Moves the sandbox clock forward, running everything due, as a test would through the control plane. */
export async function advance (app: FastifyInstance, ms: number): Promise<void> {
  const res = await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms } })
  if (res.statusCode !== 200) throw new Error(`advance failed: ${res.statusCode} ${res.body}`)
}

/** Apps where a test injects a bug on purpose: the 500 it causes is what the test expects. */
const injectedBugs = new WeakSet<FastifyInstance>()

/** Accept a 500 from this app: the test breaks a step itself to prove that nothing half-done stays. */
export function expectInjectedBug (app: FastifyInstance): void {
  injectedBugs.add(app)
}

interface DocumentedOperation { method: string, path: string, pattern: RegExp, params: number, statuses: Set<string> }

/** Every operation of an OpenAPI document with the statuses it declares, static paths before templated ones. */
export function documentedOperations (doc: { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> }): DocumentedOperation[] {
  const ops: DocumentedOperation[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`)
      ops.push({ method: method.toUpperCase(), path, pattern, params: (path.match(/\{/g) ?? []).length, statuses: new Set(Object.keys(op.responses ?? {})) })
    }
  }
  return ops.sort((a, b) => a.params - b.params)
}

/** The documented operations of an app, by its routes (what the document is generated from). */
const documentedByRoutes = new Map<string, DocumentedOperation[]>()

/**
 * Every answer a test gets through app.inject must be a status the OpenAPI document declares for that
 * operation, so the whole suite checks that the document lists what the server really answers.
 */
function checkDeclaredStatuses (t: Test, app: FastifyInstance): void {
  let operations: DocumentedOperation[] | undefined
  // Generating the document is a sixth of a route test's CPU; apps with the same routes share one.
  const documented = (): DocumentedOperation[] => {
    const routes = app.printRoutes({ commonPrefix: false })
    let ops = documentedByRoutes.get(routes)
    if (ops === undefined) {
      ops = documentedOperations(app.swagger() as unknown as Parameters<typeof documentedOperations>[0])
      documentedByRoutes.set(routes, ops)
    }
    return ops
  }
  const inject = app.inject.bind(app) as (opts: InjectOptions | string) => ReturnType<FastifyInstance['inject']>
  app.inject = (async (opts: InjectOptions | string) => {
    const res = await inject(opts)
    const method = typeof opts === 'string' ? 'GET' : (opts.method ?? 'GET').toUpperCase()
    const url = typeof opts === 'string' ? opts : String(opts.url ?? opts.path ?? '')
    operations ??= documented()
    // The path the router sees: dot segments resolved (`/cob/..` is `/`, no operation of /cob).
    const path = new URL(url, 'http://sandbox.test').pathname
    const op = operations.find(o => o.method === method && o.pattern.test(path))
    const injected = res.statusCode === 500 && injectedBugs.has(app)
    if (op && !injected && !op.statuses.has(String(res.statusCode))) t.fail(`${method} ${op.path} answered ${res.statusCode}, a status the OpenAPI document does not declare for it`)
    return res
  }) as unknown as FastifyInstance['inject']
}
