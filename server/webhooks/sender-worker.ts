import { parentPort, workerData } from 'node:worker_threads'
import { sendAttempt } from './sender.js'
import { webhookAgent } from './connect-guard.js'
import type { Listener } from './own-address.js'
import type { AttemptRequest, SenderOptions, WorkerMessage } from './sender-thread.js'

/**
 * The webhook sender's thread: it makes the HTTP attempts the main thread hands it, in batches, and
 * answers each with its SendResult, also in batches. An HTTP client costs about as much CPU per
 * request as the server side of a cash-out; here it runs beside the API instead of inside it.
 */
const { connections, connectTimeoutMs, listeners: initial } = workerData as SenderOptions
/** Where the sandbox listens, as the main thread last said (null: its own address is allowed). */
let listeners: readonly Listener[] | null = initial
const dispatcher = webhookAgent({ keepAliveTimeout: 4000, connections, connectTimeoutMs, listening: () => listeners })
const controllers = new Map<number, AbortController>()
let results: Array<[number, unknown]> = []

function reply (id: number, result: unknown): void {
  if (results.length === 0) setImmediate(flush)
  results.push([id, result])
}

function flush (): void {
  const batch = results
  results = []
  parentPort!.postMessage(batch)
}

function start (a: AttemptRequest): void {
  const controller = new AbortController()
  controllers.set(a.id, controller)
  void sendAttempt(a.url, a.headers, a.body, { dispatcher, timeoutMs: a.timeoutMs, controller })
    .then(result => {
      controllers.delete(a.id)
      reply(a.id, result)
    })
}

parentPort!.on('message', (messages: WorkerMessage[]) => {
  for (const m of messages) {
    if (m.type === 'send') start(m)
    else if (m.type === 'listeners') listeners = m.listeners
    else controllers.get(m.id)?.abort()
  }
})
