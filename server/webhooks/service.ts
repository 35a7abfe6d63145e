import type { Config } from '../config.js'
import type { Callbacks, Lifecycle, Ports } from '../ports.js'
import type { Restored } from '../store/store.js'
import { Refusal } from '../errors/refusal.js'
import { DeliveryLog, matches, type DeliveryFilter, type DeliveryNearMiss } from './delivery-log.js'
import { Registrations, sendableHeaders } from './registrations.js'
import { lookup } from 'node:dns/promises'
import { reachesListener, resolvesToListener, type Listener, type Resolve } from './own-address.js'
import type { SendResult } from './sender.js'
import type { DeliveryTypes } from './samples.js'
import { SenderThread, type Attempt } from './sender-thread.js'
import { signDelivery } from './signature.js'
import type { ClientIdentity } from './identity.js'
import { PROBE_TIMEOUT_MS, firstProbe, secondProbe } from './mtls-check.js'
import {
  GATEWAY_EVENT_TYPES, isEventType, isGatewayEvent, type AttemptKind, type Delivery, type EventType, type FailedAttempt, type GaveUp, type WebhookEvent,
} from './types.js'
import type { MtlsCheck, Mutable } from '../store/state.js'
import { DELIVERY_FAULTS } from '../../scenarios/delivery.js'
import { formatScenario, hasScenario, readScenario, scenarioParam } from '../../scenarios/resolver.js'
import type { AppliedScenario } from '../../scenarios/types.js'

/**
 * Registrations, delivery through the scheduler, and the delivery log.
 *
 * Every attempt is a scheduler job that only starts the HTTP request and returns, so a slow or dead
 * receiver never holds up the scheduler, a clock advance, the API or other deliveries. When the
 * request ends, the result is recorded and the retry (if any) is scheduled on the sandbox clock as it
 * stands then: with a frozen clock, retries happen when a test advances it past their due time.
 */
export interface WebhookServiceOptions {
  /** A bug in the bookkeeping after a request (never a receiver's failure, which is logged as data). */
  onError?: (err: unknown) => void
  /** A first or retry attempt that failed (the console's line per failed attempt). */
  onAttemptFailed?: (a: FailedAttempt) => void
  /** A delivery that will not be attempted again: its attempts ran out, or PENDING_LIMIT gave it up. */
  onGaveUp?: (g: GaveUp) => void
  /** How a receiver's host name is resolved when it is registered (dns.lookup, every address, unless a test gives another). */
  resolve?: Resolve
  /** How long a registration waits for its URL's name to resolve (3 s); a name that does not by then is accepted (own-address.ts). */
  resolveTimeoutMs?: number
  /** The headers of its own each delivery event type adds to an attempt (a dialect's signature), and whether it presents the client certificate. */
  types?: Pick<DeliveryTypes, 'signs' | 'headers' | 'presentsCertificate'>
}

const RESOLVE_TIMEOUT_MS = 3000
const resolveAll: Resolve = host => lookup(host, { all: true, verbatim: true })

/** The default account of the fixtures, which SANDBOX_WEBHOOK_URL is registered for. */
const DEFAULT_ACCOUNT_ID = 1
/**
 * Sockets per receiver origin. Unbounded, a burst of events opens thousands of connections at once and
 * overflows the receiver's accept backlog (dropped SYNs cost a second each); bounded, attempts wait in
 * the sender's own queue (send-queue.ts), a wait never counted against them. A hung receiver can then
 * hold its own origin's sockets up to webhookTimeoutMs, never another origin's.
 */
const MAX_CONNECTIONS_PER_ORIGIN = 64
/** WEBHOOK_OUT_OF_ORDER: how long (sandbox ms) an event waits for a later one of its transaction. */
export const REORDER_WINDOW_MS = 2000

const SELF_ADDRESS_REFUSED: SendResult = {
  statusCode: null,
  latencyMs: 0,
  error: 'SELF_ADDRESS: a URL aponta para o próprio sandbox; a tentativa não foi feita (SANDBOX_SELF_WEBHOOKS=enabled a permite)',
  responseBody: null,
  cancelled: false,
}

/** Where a delivery goes: a registration of the gateway, or the URL of a webhook of API Pix (no registration). */
interface Target {
  webhookId: number | null
  url: string
  headers: Readonly<Record<string, string>>
}

/**
 * WEBHOOK_OUT_OF_ORDER holds an event until the next one of its transaction: the gateway's events of a
 * transaction among themselves, every other type (API Pix's callbacks, another dialect's) among its own.
 */
function heldKeyOf (accountId: number, transactionId: string, eventType: string): string {
  return isGatewayEvent(eventType) ? `${accountId}:${transactionId}` : `${accountId}:${transactionId}:${eventType}`
}

/** The scheduler's key of a delivery's next attempt: one per delivery, which a redelivery, an eviction or a rollback cancels. */
const attemptKey = (deliveryId: string): string => `webhook-attempt:${deliveryId}`

type Fault = 'WEBHOOK_DROP' | 'WEBHOOK_DUPLICATE' | 'WEBHOOK_DELAY' | 'WEBHOOK_RECEIVER_TIMEOUT' | 'WEBHOOK_OUT_OF_ORDER' | 'WEBHOOK_BAD_SIGNATURE'

/** The delivery faults a delivery keeps (in header form, as the resolver writes them). */
const faultsOf = (d: Delivery): AppliedScenario[] => d.scenarios.map(readScenario)
const hasFault = (d: Delivery, fault: Fault): boolean => d.scenarios.length > 0 && hasScenario(faultsOf(d), fault)
const faultMs = (d: Delivery, fault: Fault, fallback: number): number => scenarioParam(faultsOf(d), fault, 'ms', fallback)
/** A delivery whose attempts a fault of its own bends, so their outcome says nothing of the receiver. */
const bentByFault = (d: Delivery): boolean => hasFault(d, 'WEBHOOK_RECEIVER_TIMEOUT') || hasFault(d, 'WEBHOOK_BAD_SIGNATURE')

export type WebhookDeps = Pick<Ports, 'store' | 'clock' | 'scheduler' | 'rng'> & {
  config: Pick<Config, 'deliveryLogSize' | 'webhookTimeoutMs' | 'selfWebhooks' | 'host' | 'port' | 'maxPendingDeliveries' | 'webhookSecret' | 'webhookMaxAttempts' | 'webhookBackoffMs' | 'webhookUrl' | 'webhookMtlsCheck'>
  /** Sent as the user-agent of every attempt. */
  version: string
  /** The client certificate presented to https receivers of the event types that ask for it (identity.ts); none: never presented. */
  identity?: ClientIdentity
  /** --webhook-receiver-ca: trusted for receivers' server certificates besides Node's own. */
  receiverCa?: string
  /** A built sender thread to run (SenderThreadOptions' `script`). */
  senderScript?: URL
}

/** How an attempt went, as its record says: over mutual TLS, or a callback that asks for it over plain http (neither: say nothing). */
type Transport = { clientCertificate?: true, plainHttp?: true }

export class WebhookService implements Lifecycle, Callbacks {
  readonly registrations: Registrations
  readonly log: DeliveryLog
  private readonly sender: SenderThread
  /** WEBHOOK_OUT_OF_ORDER: deliveries held per `${accountId}:${transactionId}`. */
  private readonly held = new Map<string, string[]>()
  /** WEBHOOK_OUT_OF_ORDER: delivery id -> held deliveries to start once its first attempt has ended. */
  private readonly followers = new Map<string, string[]>()
  private readonly inFlight = new Set<Promise<void>>()
  /** Long-polls waiting for a delivery; each entry ends its wait with no result. */
  private readonly waiters = new Set<() => void>()
  private readonly onError: (err: unknown) => void
  private readonly onAttemptFailed?: (a: FailedAttempt) => void
  private readonly onGaveUp?: (g: GaveUp) => void
  /** How to cancel each request under way, so a reset or close cancels them all. */
  private readonly cancellers = new Set<() => void>()
  /** The first or retry attempt under way per delivery (at most one), so giving a delivery up cancels it. */
  private readonly attemptOf = new Map<string, () => void>()
  /** Bumped by reset and load: a request that ends after one belongs to a state that no longer exists. */
  private generation = 0
  private closed = false
  /** Where the sandbox listens, once it does (see listeningOn). */
  private listeners: Listener[] | null = null
  /** Whether each URL attempted so far reaches the sandbox itself (few distinct URLs, asked on every attempt). */
  private readonly selfUrls = new Map<string, boolean>()
  private readonly resolve: Resolve
  private readonly resolveTimeoutMs: number
  private readonly types?: Pick<DeliveryTypes, 'signs' | 'headers' | 'presentsCertificate'>
  /**
   * The receivers (URLs) whose latest attempt failed: the pending cap counts only their deliveries. A
   * fact about the receiver, not about the state: a rollback of the attempt's record leaves it.
   */
  private readonly failing = new Set<string>()

  constructor (private readonly deps: WebhookDeps, opts: WebhookServiceOptions = {}) {
    this.resolve = opts.resolve ?? resolveAll
    this.resolveTimeoutMs = opts.resolveTimeoutMs ?? RESOLVE_TIMEOUT_MS
    this.types = opts.types
    this.registrations = new Registrations(deps.store, deps.clock, { isSandbox: url => this.isSandbox(url), resolvesToSandbox: url => this.resolvesToSandbox(url) })
    this.log = new DeliveryLog(deps.store, () => deps.config.deliveryLogSize)
    this.onError = opts.onError ?? (err => process.emitWarning(`webhook bookkeeping failed: ${String(err)}`))
    this.onAttemptFailed = opts.onAttemptFailed
    this.onGaveUp = opts.onGaveUp
    this.sender = new SenderThread({
      connections: MAX_CONNECTIONS_PER_ORIGIN,
      connectTimeoutMs: deps.config.webhookTimeoutMs,
      listeners: this.ownListeners(),
      ...(deps.identity !== undefined ? { identity: deps.identity } : {}),
      ...(deps.receiverCa !== undefined ? { receiverCa: deps.receiverCa } : {}),
      ...(deps.senderScript !== undefined ? { script: deps.senderScript } : {}),
    })
  }

  // ---- the sandbox's own address ----------------------------------------------------------------

  /** The addresses the server listens on, once it does; until then the configured host and port count. */
  listeningOn (listeners: Listener[]): void {
    this.listeners = listeners
    this.selfUrls.clear()
    this.sender.listeningOn(this.ownListeners())
  }

  /** Where the sandbox listens as far as receivers go: null when SANDBOX_SELF_WEBHOOKS=enabled lets them reach it. */
  private ownListeners (): Listener[] | null {
    if (this.deps.config.selfWebhooks === 'enabled') return null
    return this.listeners ?? [{ address: this.deps.config.host, port: this.deps.config.port }]
  }

  /** Whether a receiver URL, as written, would reach the sandbox itself (refused unless SANDBOX_SELF_WEBHOOKS=enabled). */
  private isSandbox (url: URL): boolean {
    const listeners = this.ownListeners()
    return listeners !== null && reachesListener(url, listeners)
  }

  /** The same by the addresses its host name resolves to now (a registration; each attempt's connection checks again). */
  private resolvesToSandbox (url: URL): Promise<boolean> {
    const listeners = this.ownListeners()
    return listeners === null ? Promise.resolve(false) : resolvesToListener(url, listeners, this.resolve, this.resolveTimeoutMs)
  }

  /**
   * The same at attempt time, for URLs registered before the rule, or before the sandbox listened where it
   * does now: such an attempt is not made, and fails with the reason.
   */
  private pointsAtSandbox (url: string): boolean {
    let self = this.selfUrls.get(url)
    if (self === undefined) {
      try {
        self = this.isSandbox(new URL(url))
      } catch {
        self = false // the sender reports an unparsable URL itself
      }
      if (this.selfUrls.size >= 1000) this.selfUrls.clear()
      this.selfUrls.set(url, self)
    }
    return self
  }

  // ---- events ---------------------------------------------------------------------------------

  /** Records and schedules the delivery of an event to every active URL of its type. */
  emit<E extends EventType> (event: WebhookEvent<E>): void {
    this.publish(event)
  }

  /** emit, returning the deliveries it created (one per active URL, or one `no_receiver`). */
  publish<E extends EventType> (event: WebhookEvent<E>): Delivery[] {
    return this.publishTo(event, [])
  }

  /**
   * One event to the active registrations of its type (an event type of the gateway's, or `rec`) and
   * to the URLs of webhooks of API Pix its callback is posted to, as one event: one eventId, and
   * WEBHOOK_OUT_OF_ORDER holding it back at every receiver alike. `no_receiver` only with neither.
   */
  publishTo<E extends string> (event: WebhookEvent<E>, callbackUrls: readonly string[]): Delivery[] {
    return this.deps.store.transact(() => {
      const registered = isEventType(event.eventType) ? this.registrations.activeFor(event.accountId, event.eventType) : []
      const targets: Target[] = [
        ...registered.map(w => ({ webhookId: w.id, url: w.url, headers: w.headers })),
        ...callbackUrls.map(url => ({ webhookId: null, url, headers: {} })),
      ]
      return this.createDeliveries(event, targets)
    })
  }

  /** Callbacks: the URL rules of the gateway's registrations (http or https), for a webhook of API Pix. */
  checkReceiver (url: string): Promise<URL> {
    return this.registrations.checkReceiver(url, { httpsOnly: false })
  }

  /**
   * Callbacks: the check of a receiver's mutual TLS as Efí makes it when a webhook is configured
   * (mtls-check.ts), unless --webhook-mtls-check disabled or the account's switch (`off`) says not to:
   * how it was checked, or Efí's reason to refuse it. `skipFirst` (`x-skip-mtls-checking: true`) skips
   * the request without a certificate. A plain http receiver is accepted unchecked wherever it is, as
   * the sandbox's receivers are the developer's (docs/assumptions.md, Webhooks), and marked so.
   */
  async checkMutualTls (url: URL, opts: { skipFirst: boolean, off: boolean }): Promise<{ mtlsCheck: MtlsCheck } | { refused: { nome: string, mensagem: string } }> {
    if (url.protocol !== 'https:') return { mtlsCheck: 'plain-http' }
    if (opts.off || this.deps.config.webhookMtlsCheck !== 'enabled') return { mtlsCheck: 'unchecked' }
    const mensagem = await this.mutualTlsRefusal(url, opts.skipFirst)
    // Efí's `nome` of every refusal of what the receiver did.
    if (mensagem !== null) return { refused: { nome: 'webhook_invalido', mensagem } }
    return { mtlsCheck: opts.skipFirst ? 'certificate-only' : 'checked' }
  }

  private async mutualTlsRefusal (url: URL, skipFirst: boolean): Promise<string | null> {
    const body = JSON.stringify({ evento: 'teste_webhook', data_criacao: new Date(this.deps.clock.now()).toISOString() })
    const headers = { 'content-type': 'application/json', 'user-agent': `pix-sandbox/${this.deps.version}` }
    if (!skipFirst) {
      const refused = firstProbe(await this.probe(url.href, headers, body, false))
      if (refused !== null) return refused
    }
    return secondProbe(await this.probe(url.href, headers, body, true))
  }

  /** One request of the check; cancelled, like any attempt, when the sandbox closes or resets. */
  private async probe (url: string, headers: Record<string, string>, body: string, clientCertificate: boolean): Promise<SendResult> {
    if (this.closed) return { statusCode: null, latencyMs: 0, error: 'CANCELLED', responseBody: null, cancelled: true }
    const attempt = this.sender.send(url, headers, body, PROBE_TIMEOUT_MS, undefined, clientCertificate)
    this.cancellers.add(attempt.cancel)
    try {
      return await attempt.result
    } finally {
      this.cancellers.delete(attempt.cancel)
    }
  }

  /** The sandbox's client identity (docs/webhooks.md, mutual TLS): its CA is what receivers trust; none when the sandbox was given none. */
  get clientIdentity (): ClientIdentity | undefined {
    return this.deps.identity
  }

  /**
   * A callback to the URL a dialect's webhook names (API Pix's, docs/api-pix.md, webhook): one delivery,
   * signed, retried, logged and bent by the delivery faults as an event of the gateway is.
   */
  deliver<E extends string> (event: WebhookEvent<E>, url: string): Delivery {
    return this.deps.store.transact(() => this.createDeliveries(event, [{ webhookId: null, url, headers: {} }])[0])
  }

  private createDeliveries (event: WebhookEvent<string>, targets: readonly Target[]): Delivery[] {
    const now = this.deps.clock.now()
    const iso = new Date(now).toISOString()
    const eventId = this.deps.rng.uuid()
    const transactionId = event.transactionId ?? null
    const scenarios = event.scenarios && event.scenarios.length > 0
      ? event.scenarios.filter(s => DELIVERY_FAULTS.has(s.name)).map(formatScenario)
      : []
    // One record per target, built whole (every settlement makes at least one, so no spreads here).
    const delivery = (target: Target | null): Mutable<Delivery> => ({
      id: this.deps.rng.uuid(),
      seq: this.deps.store.nextSeq('delivery'),
      accountId: event.accountId,
      eventType: event.eventType,
      eventId,
      transactionId,
      webhookId: target ? target.webhookId : null,
      url: target ? target.url : null,
      status: target ? 'pending' : 'no_receiver',
      requestHeaders: target ? { ...target.headers } : {},
      body: event.payload,
      attempts: [],
      nextAttemptAt: null,
      scenarios,
      createdAt: iso,
      updatedAt: iso,
    })

    if (targets.length === 0) {
      // Recorded all the same, so a test can see that the event happened and why nothing arrived.
      const d = delivery(null)
      this.add(d)
      return [d]
    }

    const heldKey = transactionId ? heldKeyOf(event.accountId, transactionId, event.eventType) : null
    const earlier = heldKey ? this.held.get(heldKey) : undefined
    if (heldKey && earlier) this.held.delete(heldKey)
    const created: Delivery[] = []
    for (const target of targets) {
      const d = delivery(target)
      created.push(d)
      if (hasFault(d, 'WEBHOOK_DROP')) {
        d.status = 'dropped'
        this.add(d)
        continue
      }
      let delay = hasFault(d, 'WEBHOOK_DELAY') ? faultMs(d, 'WEBHOOK_DELAY', 0) : 0
      if (heldKey && !earlier && hasFault(d, 'WEBHOOK_OUT_OF_ORDER')) {
        // Held back: a later event of the same transaction will go first; if none comes, it goes alone.
        d.heldForReorder = true
        delay += faultMs(d, 'WEBHOOK_OUT_OF_ORDER', REORDER_WINDOW_MS)
      }
      d.nextAttemptAt = new Date(now + delay).toISOString()
      this.add(d)
      this.schedule(d, now + delay, 'first')
    }
    const nowHeld = created.filter(d => d.heldForReorder).map(d => d.id)
    if (heldKey && nowHeld.length > 0) this.held.set(heldKey, nowHeld)
    if (earlier) this.releaseAfter(earlier, created)
    this.capPending(event.accountId)
    return created
  }

  /**
   * Beyond maxPendingDeliveries pending for receivers that fail (their latest attempt failed), the
   * account's oldest such deliveries fail with PENDING_LIMIT: their attempt under way is cancelled and
   * their retry forgotten, so a dead or hanging receiver holds a bounded number of deliveries, jobs and
   * requests however many events it misses. A receiver that answers is owed every delivery, however
   * large a burst the sandbox makes (a long jump of the clock): none of its deliveries counts.
   */
  private capPending (accountId: number): void {
    const cap = this.deps.config.maxPendingDeliveries
    const over = this.log.pendingBeyond(accountId, cap, url => this.failing.has(url))
    if (over.length === 0) return
    const iso = new Date(this.deps.clock.now()).toISOString()
    const reason = `PENDING_LIMIT: account ${accountId} had more than ${cap} deliveries pending (SANDBOX_MAX_PENDING_DELIVERIES) for receivers whose latest attempt failed; the oldest were given up`
    for (const d of over) {
      this.attemptOf.get(d.id)?.()
      if (d.heldForReorder) this.unhold(d)
      this.log.update(d.id, x => {
        x.status = 'failed'
        x.failureReason = reason
        x.nextAttemptAt = null
        x.updatedAt = iso
      })
      this.startFollowers(d.id)
      this.onGaveUp?.({ deliveryId: d.id, accountId: d.accountId, eventType: d.eventType, url: d.url, attempts: d.attempts.length, reason })
    }
    this.forget(over)
    this.forget(this.log.trim(accountId))
  }

  /**
   * WEBHOOK_OUT_OF_ORDER: the held (earlier) deliveries start only once the later event's delivery to
   * the same URL has finished its first attempt, so the receiver really sees the final event first.
   */
  private releaseAfter (heldIds: string[], later: Delivery[]): void {
    for (const id of heldIds) {
      const d = this.log.get(id)
      if (!d || d.status !== 'pending') continue
      this.deps.scheduler.cancelKey(attemptKey(id))
      const leader = later.find(l => l.webhookId === d.webhookId && l.url === d.url && l.status === 'pending')
      if (leader) {
        this.log.update(id, x => { x.nextAttemptAt = null })
        this.followers.set(leader.id, [...(this.followers.get(leader.id) ?? []), id])
      } else {
        this.schedule(d, this.deps.clock.now(), 'first')
      }
    }
  }

  private startFollowers (leaderId: string): void {
    const ids = this.followers.get(leaderId)
    if (!ids) return
    this.followers.delete(leaderId)
    for (const id of ids) {
      const d = this.log.get(id)
      if (d && d.status === 'pending') this.schedule(d, this.deps.clock.now(), 'first')
    }
  }

  // ---- attempts -------------------------------------------------------------------------------

  private schedule (d: Delivery, at: number, kind: AttemptKind): void {
    const nextAttemptAt = new Date(at).toISOString()
    if (d.nextAttemptAt !== nextAttemptAt) this.log.update(d.id, x => { x.nextAttemptAt = nextAttemptAt })
    const id = d.id
    this.deps.scheduler.at(at, 'webhook-attempt', () => {
      const current = this.log.get(id)
      // Looked up again: a reset, an eviction or a redelivery may have happened since.
      if (!current || current.status !== 'pending') return
      this.start(current, kind)
    }, attemptKey(id))
    // A frozen clock arms no timer, yet an attempt due now is due: time need not pass for it to go out.
    if (at <= this.deps.clock.now() && this.deps.clock.isFrozen()) void this.deps.scheduler.runDue()
  }

  /**
   * Starts one HTTP attempt and returns at once; `finish` records it when the request ends. Nothing
   * goes out about a change that is not on disk yet (a settlement whose write may still fail and be
   * rolled back): the attempt waits for the write, and is dropped if the delivery went with it.
   */
  private start (d: Delivery, kind: AttemptKind): void {
    if (this.closed || !d.url) return
    if (this.deps.store.hasUndurableChanges()) {
      const id = d.id
      const generation = this.generation
      // Counted as under way, so idle() (a graceful stop, a test) waits for it too.
      const waiting: Promise<void> = this.deps.store.whenDurable().then(() => {
        const current = this.log.get(id)
        if (!current || generation !== this.generation) return
        if (kind !== 'redeliver' && kind !== 'duplicate' && current.status !== 'pending') return
        this.deps.store.unit(() => this.start(current, kind))
      }, () => {}).finally(() => { this.inFlight.delete(waiting) })
      this.inFlight.add(waiting)
      return
    }
    if (d.heldForReorder) this.unhold(d)
    const timestamp = Math.floor(this.deps.clock.now() / 1000)
    const body = JSON.stringify(d.body ?? null)
    // WEBHOOK_BAD_SIGNATURE: a well-formed signature made with another secret, as a forger would send.
    const forged = hasFault(d, 'WEBHOOK_BAD_SIGNATURE')
    const secret = forged ? `forged:${this.deps.config.webhookSecret}` : this.deps.config.webhookSecret
    const webhook = d.webhookId !== null ? this.registrations.get(d.webhookId) : undefined
    // The registration's current headers (a PATCH applies to retries too), then the sender's own.
    const headers: Record<string, string> = {
      ...sendableHeaders(webhook?.headers ?? d.requestHeaders),
      'content-type': 'application/json',
      'user-agent': `pix-sandbox/${this.deps.version}`,
      'x-sandbox-delivery-id': d.id,
      'x-sandbox-event-type': d.eventType,
      'x-sandbox-timestamp': String(timestamp),
      'x-sandbox-signature': signDelivery(secret, timestamp, body),
      // A dialect's own headers for its event type (a PSP's signature); none for the built-in ones.
      ...(this.types?.signs(d.eventType) === true ? this.types.headers({ deliveryId: d.id, accountId: d.accountId, eventType: d.eventType, transactionId: d.transactionId, body, timestamp, forged }) : {}),
    }
    const at = new Date(this.deps.clock.now()).toISOString()
    this.log.update(d.id, x => {
      x.requestHeaders = headers
      // A redelivery or duplicate goes alongside the retry schedule, which stays as it was.
      if (kind === 'first' || kind === 'retry') x.nextAttemptAt = null
    })
    const generation = this.generation
    const url = d.url
    const id = d.id
    // The PSP's client certificate, to an https receiver of an event type that presents it (API Pix's
    // callbacks); to a plain http one, such a callback goes without TLS, and its attempt says so.
    const presents = this.types?.presentsCertificate(d.eventType) === true
    const clientCertificate = url.startsWith('https:') && this.deps.identity !== undefined && presents
    const transport: Transport = clientCertificate ? { clientCertificate: true } : presents && url.startsWith('http:') ? { plainHttp: true } : {}
    const attempt: Attempt = this.pointsAtSandbox(url)
      ? { result: Promise.resolve(SELF_ADDRESS_REFUSED), cancel: () => {} }
      : this.sender.send(url, headers, body, this.deps.config.webhookTimeoutMs, d.transactionId !== null ? `${url}\n${d.transactionId}` : undefined, clientCertificate)
    const cancel = attempt.cancel
    this.cancellers.add(cancel)
    const scheduled = kind === 'first' || kind === 'retry'
    if (scheduled) this.attemptOf.set(id, cancel)
    const p = attempt.result
      .then(result => this.finish(id, generation, kind, at, headers, transport, result))
      .catch(this.onError)
      .finally(() => {
        this.inFlight.delete(p)
        this.cancellers.delete(cancel)
        if (scheduled && this.attemptOf.get(id) === cancel) this.attemptOf.delete(id)
      })
    this.inFlight.add(p)
  }

  private finish (id: string, generation: number, kind: AttemptKind, at: string, headers: Record<string, string>, transport: Transport, result: SendResult): void {
    if (result.cancelled || generation !== this.generation) return
    if (!this.log.get(id)) return // evicted or its account removed while the request was out
    // The result of an attempt is a unit of its own, written like a scheduled job's.
    this.deps.store.unit(() => this.recordAttempt(id, kind, at, headers, transport, result))
  }

  private recordAttempt (id: string, kind: AttemptKind, at: string, headers: Record<string, string>, transport: Transport, result: SendResult): void {
    const d = this.log.get(id)!
    let { statusCode, error } = result
    if (kind === 'first' && hasFault(d, 'WEBHOOK_RECEIVER_TIMEOUT')) {
      // The receiver got the request, but the sandbox acts as if the answer never came back.
      error = `TIMEOUT: simulado pelo cenário WEBHOOK_RECEIVER_TIMEOUT (o receptor respondeu ${statusCode ?? error})`
      statusCode = null
    } else if (error === null && statusCode !== null && (statusCode < 200 || statusCode > 299)) {
      error = `HTTP ${statusCode}`
    }
    const ok = error === null
    const attempt = { at, kind, statusCode, latencyMs: result.latencyMs, error, responseBody: result.responseBody, requestHeaders: headers, ...transport }
    const updatedAt = new Date(this.deps.clock.now()).toISOString()
    let retryAt: number | null = null
    let duplicate = false

    this.log.update(id, x => {
      x.attempts = x.attempts.concat(attempt)
      x.updatedAt = updatedAt
      if (kind === 'redeliver') {
        if (ok) {
          x.nextAttemptAt = null
          x.status = 'delivered'
        } else if (x.status !== 'pending') {
          x.status = 'failed'
        }
      } else if ((kind === 'first' || kind === 'retry') && x.status === 'pending') {
        if (ok) {
          x.status = 'delivered'
          // As if the acknowledgement was lost: the same delivery (same id) arrives once more.
          duplicate = hasFault(d, 'WEBHOOK_DUPLICATE') && !x.attempts.some(a => a.kind === 'duplicate')
        } else {
          const made = x.attempts.filter(a => a.kind === 'first' || a.kind === 'retry').length
          // A refused forgery is what a receiver should answer: it is not retried.
          if (made >= this.deps.config.webhookMaxAttempts || hasFault(d, 'WEBHOOK_BAD_SIGNATURE')) x.status = 'failed'
          else retryAt = this.deps.clock.now() + this.deps.config.webhookBackoffMs * 2 ** (made - 1)
        }
      }
    })
    if (!ok && (kind === 'first' || kind === 'retry')) this.reportFailure(d, error!, retryAt)
    const failedNow = this.receiverAnswered(d, result)
    if (kind === 'redeliver' && ok) this.deps.scheduler.cancelKey(attemptKey(id))
    if (duplicate) this.start(d, 'duplicate')
    if (retryAt !== null) this.schedule(d, retryAt, 'retry')
    if (kind === 'first') this.startFollowers(id)
    if (d.status !== 'pending') this.forget(this.log.trim(d.accountId))
    if (failedNow) this.capPending(d.accountId)
  }

  /**
   * What an attempt says of its receiver: failing, or answering again. A delivery bent by a fault of
   * its own (WEBHOOK_RECEIVER_TIMEOUT, WEBHOOK_BAD_SIGNATURE) says nothing of it. True when the
   * receiver has just started failing, so the cap applies to it from now on.
   */
  private receiverAnswered (d: Delivery, result: SendResult): boolean {
    if (d.url === null || bentByFault(d)) return false
    const ok = result.error === null && result.statusCode !== null && result.statusCode >= 200 && result.statusCode <= 299
    if (ok) {
      this.failing.delete(d.url)
      return false
    }
    if (this.failing.has(d.url)) return false
    this.failing.add(d.url)
    return true
  }

  private reportFailure (before: Delivery, error: string, retryAt: number | null): void {
    const d = this.log.get(before.id) ?? before
    const made = d.attempts.filter(a => a.kind === 'first' || a.kind === 'retry').length
    const base = { deliveryId: d.id, accountId: d.accountId, eventType: d.eventType, url: d.url }
    this.onAttemptFailed?.({ ...base, attempt: made, maxAttempts: this.deps.config.webhookMaxAttempts, error, retryAt: retryAt === null ? null : new Date(retryAt).toISOString() })
    if (d.status === 'failed') this.onGaveUp?.({ ...base, attempts: made, reason: error })
  }

  private hold (d: Delivery): void {
    if (!d.transactionId) return
    const key = heldKeyOf(d.accountId, d.transactionId, d.eventType)
    const ids = this.held.get(key) ?? []
    if (!ids.includes(d.id)) this.held.set(key, [...ids, d.id])
  }

  private unhold (d: Delivery): void {
    if (!d.transactionId) return
    const key = heldKeyOf(d.accountId, d.transactionId, d.eventType)
    const ids = this.held.get(key)
    if (!ids) return
    const rest = ids.filter(x => x !== d.id)
    if (rest.length === 0) this.held.delete(key)
    else this.held.set(key, rest)
  }

  /** A new attempt now, whatever the status; answers with the delivery as it stands (the attempt is under way). */
  redeliver (id: string): Delivery {
    const d = this.log.get(id)
    if (!d) throw new Refusal('DELIVERY_NOT_FOUND', `Delivery ${id} not found`)
    if (!d.url) throw new Refusal('NO_RECEIVER', 'This delivery has no URL: no active webhook existed for the event when it happened')
    this.deps.store.transact(() => this.start(d, 'redeliver'))
    return d
  }

  // ---- the log --------------------------------------------------------------------------------

  delivery (id: string): Delivery | undefined {
    return this.log.get(id)
  }

  /** The deliveries closest to a filter none matches, each with what differed (DeliveryLog.nearMisses). */
  nearMisses (filter: DeliveryFilter, limit = 5): DeliveryNearMiss[] {
    return this.log.nearMisses(filter, limit)
  }

  deliveries (filter: DeliveryFilter, limit = 100): Delivery[] {
    return this.log.query(filter, limit)
  }

  /**
   * The newest delivery matching the filter, as soon as one exists: checks the log, then listens to
   * changes (no polling). Resolves null after `timeoutMs` of real time or when `signal` aborts.
   */
  waitFor (filter: DeliveryFilter, timeoutMs: number, signal?: AbortSignal): Promise<Delivery | null> {
    const [found] = this.log.query(filter, 1)
    if (found) return Promise.resolve(found)
    return new Promise(resolve => {
      const done = (d: Delivery | null) => {
        clearTimeout(timer)
        stop()
        this.waiters.delete(end)
        signal?.removeEventListener('abort', onAbort)
        resolve(d)
      }
      const stop = this.log.listen(d => { if (matches(d, filter)) done(d) })
      const timer = setTimeout(() => done(null), timeoutMs)
      const onAbort = () => done(null)
      const end = () => done(null)
      this.waiters.add(end)
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  private add (d: Mutable<Delivery>): void {
    this.forget(this.log.add(d))
  }

  private forget (evicted: Delivery[]): void {
    for (const old of evicted) {
      this.deps.scheduler.cancelKey(attemptKey(old.id))
      this.followers.delete(old.id)
    }
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  /** Settles once no request is out (including duplicates that finished requests start). */
  async idle (): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight])
  }

  /** Cancels every request under way and stops accepting new ones; run when the app closes. */
  async close (): Promise<void> {
    this.closed = true
    this.cancelAll()
    this.closeWaiters()
    await this.idle()
    await this.sender.close()
  }

  /** Ends long-polls early (they would otherwise hold the server's close for up to their timeout). */
  closeWaiters (): void {
    for (const end of [...this.waiters]) end()
  }

  /** Forgets requests under way and in-memory bookkeeping: the state they belonged to is gone. */
  private forgetInFlight (): void {
    this.generation += 1
    this.cancelAll()
    this.held.clear()
    this.followers.clear()
  }

  private cancelAll (): void {
    for (const cancel of this.cancellers) cancel()
    this.cancellers.clear()
    this.attemptOf.clear()
  }

  // Hooks rather than `derived` (store/derived.ts): what the deliveries keep in memory is more than an
  // index or one job per record. Requests under way belong to the state they were made for, a delivery
  // held back by WEBHOOK_OUT_OF_ORDER waits for its leader's first attempt, the log trims to its cap and
  // the pending to theirs, and which receivers fail is drawn from the attempts on a load.

  afterReset (): void {
    this.forgetInFlight()
    this.failing.clear()
    this.log.reindex()
    this.ensureConfiguredUrl()
  }

  /** After start with --data or a snapshot import: pending deliveries are scheduled again. */
  afterLoad (): void {
    this.forgetInFlight()
    this.log.reindex()
    this.failingFromLog()
    // A state saved with more pending than the cap (an older version, another setting) is bounded first.
    for (const accountId of this.log.accountsPending()) this.capPending(accountId)
    const now = this.deps.clock.now()
    for (const d of this.log.all().sort((a, b) => a.seq - b.seq)) this.resume(d, now)
    this.ensureConfiguredUrl()
  }

  /**
   * A rollback put these deliveries back: the log's index, each one's scheduled attempt and its place
   * among the held (WEBHOOK_OUT_OF_ORDER) follow it as it is now; an attempt the failed change started
   * for it is cancelled. Every other delivery, and every other attempt under way, goes on as it was.
   */
  afterRestore (restored: Restored): void {
    const deliveries = restored.of('deliveries')
    if (deliveries.length === 0) return
    this.log.follow(deliveries)
    const now = this.deps.clock.now()
    for (const d of [...deliveries].sort((a, b) => a.seq - b.seq)) {
      this.deps.scheduler.cancelKey(attemptKey(d.id))
      this.attemptOf.get(d.id)?.()
      if (!restored.isInState('deliveries', d) || d.status !== 'pending') {
        this.followers.delete(d.id)
        this.unhold(d)
        continue
      }
      if (d.heldForReorder) this.hold(d)
      // A follower waits for its leader's first attempt, which starts it.
      if (d.nextAttemptAt === null && [...this.followers.values()].some(ids => ids.includes(d.id))) continue
      this.resume(d, now)
    }
  }

  /** The receivers whose latest recorded attempt failed, as the log tells (a load, an import). */
  private failingFromLog (): void {
    this.failing.clear()
    const latest = new Map<string, { at: string, ok: boolean }>()
    for (const d of this.log.all()) {
      if (d.url === null || bentByFault(d)) continue
      for (const a of d.attempts) {
        const seen = latest.get(d.url)
        if (seen === undefined || a.at >= seen.at) latest.set(d.url, { at: a.at, ok: a.error === null })
      }
    }
    for (const [url, { ok }] of latest) if (!ok) this.failing.add(url)
  }

  /** A pending delivery's next attempt on the scheduler; one that was out (no due time) is made again now. */
  private resume (d: Delivery, now: number): void {
    if (d.status !== 'pending' || !d.url) return
    const made = d.attempts.filter(a => a.kind === 'first' || a.kind === 'retry').length
    const at = d.nextAttemptAt ? Math.max(now, Date.parse(d.nextAttemptAt)) : now
    this.schedule(d, at, made === 0 ? 'first' : 'retry')
  }

  forgetAccount (accountId: number): void {
    for (const d of this.log.forgetAccount(accountId)) {
      this.deps.scheduler.cancelKey(attemptKey(d.id))
      this.followers.delete(d.id)
    }
    for (const key of [...this.held.keys()]) if (key.startsWith(`${accountId}:`)) this.held.delete(key)
    // An account reset removes then re-adds the account in one go; the configured URL comes back after it.
    if (accountId === DEFAULT_ACCOUNT_ID && this.deps.config.webhookUrl) {
      queueMicrotask(() => this.deps.store.unit(() => this.ensureConfiguredUrl()))
    }
  }

  /** SANDBOX_WEBHOOK_URL: every gateway event type of the default account goes to that URL (API Pix's `rec` goes where PUT /webhookrec says). */
  private ensureConfiguredUrl (): void {
    const url = this.deps.config.webhookUrl
    if (!url || !this.deps.store.account(DEFAULT_ACCOUNT_ID)) return
    this.registrations.ensure(DEFAULT_ACCOUNT_ID, GATEWAY_EVENT_TYPES, url)
  }
}
