import { Worker } from 'node:worker_threads'
import type { SendResult } from './sender.js'
import type { Listener } from './own-address.js'
import type { ClientIdentity } from './identity.js'

/**
 * Webhook attempts go out from a worker thread. Every settlement with a receiver makes at least one
 * request, and the client side of a request cost about as much CPU as the cash-out it reports: on the
 * API's thread, undici was where a cash-out with a receiver spent most of its time (a bare undici
 * client does about 9k requests/s on one core of the project's machine). The service hands over an
 * attempt and gets its SendResult; messages cross in batches, one per turn of the event loop.
 */
export interface Attempt {
  result: Promise<SendResult>
  /** Ends the attempt (reset, close); its result is then `cancelled`. */
  cancel: () => void
}

export interface AttemptRequest {
  type: 'send'
  id: number
  url: string
  headers: Record<string, string>
  body: string
  timeoutMs: number
  /** Attempts of the same order go one after another, in the order they were handed over (send-queue.ts). */
  order?: string
  /** Present the sandbox's client certificate (sent to the thread before the first such attempt). */
  clientCertificate?: true
}

export type WorkerMessage =
  | AttemptRequest
  | { type: 'cancel', id: number }
  | { type: 'listeners', listeners: readonly Listener[] | null }
  | { type: 'identity', identity: ClientIdentity }

export interface SenderOptions {
  connections: number
  connectTimeoutMs: number
  /**
   * Where the sandbox listens: no connection goes to an address of it (connect-guard.ts). Null when
   * SANDBOX_SELF_WEBHOOKS allows its own address.
   */
  listeners: readonly Listener[] | null
  /** --webhook-receiver-ca: trusted for receivers' server certificates besides Node's own. */
  receiverCa?: string
}

/**
 * The sender thread's settings, the identity its attempts present when asked to (not part of the
 * thread's data; none: never presented), and the script it runs when the caller has one built (a
 * bundle of sender-worker.ts, as the tests have: from the sources, a thread registers tsx first and
 * spends about three times the CPU before its first attempt; none: startWorker's choice).
 */
export type SenderThreadOptions = SenderOptions & { identity?: ClientIdentity, script?: URL }

const CANCELLED: SendResult = { statusCode: null, latencyMs: 0, error: 'CANCELLED', responseBody: null, cancelled: true }

export class SenderThread {
  private worker: Worker | null = null
  private readonly waiting = new Map<number, (result: SendResult) => void>()
  private outbox: WorkerMessage[] = []
  private seq = 0
  /** Whether the thread running now was given the identity: once per thread, never per attempt. */
  private identityGiven = false

  constructor (private readonly options: SenderThreadOptions) {}

  /** Where the sandbox listens now (once it does): the thread's connections keep away from it. */
  listeningOn (listeners: readonly Listener[] | null): void {
    this.options.listeners = listeners
    if (this.worker) this.post({ type: 'listeners', listeners })
  }

  /** One attempt; with `clientCertificate`, the connection presents the sandbox's client certificate. */
  send (url: string, headers: Record<string, string>, body: string, timeoutMs: number, order?: string, clientCertificate = false): Attempt {
    const id = ++this.seq
    const result = new Promise<SendResult>(resolve => this.waiting.set(id, resolve))
    const identity = clientCertificate ? this.options.identity : undefined
    if (identity !== undefined) this.offer(identity)
    this.post({ type: 'send', id, url, headers, body, timeoutMs, ...(order !== undefined ? { order } : {}), ...(identity !== undefined ? { clientCertificate: true } : {}) })
    return {
      result,
      cancel: () => {
        if (this.waiting.has(id)) this.post({ type: 'cancel', id })
      },
    }
  }

  /** The identity goes to the thread once, before the first attempt that presents it. */
  private offer (identity: ClientIdentity): void {
    if (this.identityGiven) return
    this.identityGiven = true
    this.post({ type: 'identity', identity })
  }

  private settle (id: number, result: SendResult): void {
    const resolve = this.waiting.get(id)
    this.waiting.delete(id)
    resolve?.(result)
  }

  async close (): Promise<void> {
    this.settleAll(CANCELLED)
    const worker = this.worker
    this.worker = null
    this.outbox = []
    this.identityGiven = false
    if (worker) await worker.terminate()
  }

  /** Messages go in batches, one per turn of the event loop: a burst of settlements is one message. */
  private post (message: WorkerMessage): void {
    if (this.outbox.length === 0) setImmediate(() => this.flush())
    this.outbox.push(message)
  }

  private flush (): void {
    const batch = this.outbox
    this.outbox = []
    if (batch.length > 0) this.thread().postMessage(batch)
  }

  /** Started on the first attempt, so a sandbox that never delivers never starts a thread. */
  private thread (): Worker {
    if (this.worker) return this.worker
    const { connections, connectTimeoutMs, listeners, receiverCa } = this.options
    const data = { connections, connectTimeoutMs, listeners, ...(receiverCa !== undefined ? { receiverCa } : {}) } satisfies SenderOptions
    // A built script needs none of the loaders the parent thread was started with.
    const worker = this.options.script !== undefined ? new Worker(this.options.script, { workerData: data, execArgv: [] }) : startWorker(data)
    worker.unref()
    worker.on('message', (results: Array<[number, SendResult]>) => {
      for (const [id, result] of results) this.settle(id, result)
    })
    const lost = (reason: string): void => {
      if (this.worker !== worker) return
      this.worker = null
      this.identityGiven = false
      // Whatever was out is reported failed, so the retry policy sends it again: nothing is lost.
      this.settleAll({ statusCode: null, latencyMs: 0, error: `SENDER_FAILED: ${reason}`, responseBody: null, cancelled: false })
    }
    worker.on('error', err => lost(err.message))
    worker.on('exit', code => lost(`the sender thread exited (${code})`))
    this.worker = worker
    return worker
  }

  private settleAll (result: SendResult): void {
    for (const resolve of this.waiting.values()) resolve(result)
    this.waiting.clear()
  }
}

/**
 * Built, the thread runs webhooks/sender-worker.js beside the bundle this code is part of
 * (dist/server/main.js or index.js: scripts/bundle.mjs), or beside this file when tsc's output of it
 * runs unbundled. Run from source (npm start), it is sender-worker.ts: a thread does not get the
 * parent's TypeScript loader, so a bootstrap registers tsx in it first (the tests' apps are given a
 * built one instead: SenderThreadOptions' `script`).
 */
function startWorker (workerData: unknown): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    const beside = import.meta.url.endsWith('/webhooks/sender-thread.js') ? './sender-worker.js' : './webhooks/sender-worker.js'
    return new Worker(new URL(beside, import.meta.url), { workerData })
  }
  const entry = new URL('./sender-worker.ts', import.meta.url).href
  const tsx = import.meta.resolve('tsx/esm/api')
  const bootstrap = `import(${JSON.stringify(tsx)}).then(m => { m.register(); return import(${JSON.stringify(entry)}) })`
  return new Worker(bootstrap, { eval: true, workerData })
}
