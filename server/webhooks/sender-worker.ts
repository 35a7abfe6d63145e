import { parentPort, workerData } from 'node:worker_threads'
import { sendAttempt, type SendResult } from './sender.js'
import { webhookAgent } from './connect-guard.js'
import { SendQueue } from './send-queue.js'
import type { Listener } from './own-address.js'
import type { ClientIdentity } from './identity.js'
import type { Dispatcher } from 'undici'
import type { AttemptRequest, SenderOptions, WorkerMessage } from './sender-thread.js'

/**
 * The webhook sender's thread: it makes the HTTP attempts the main thread hands it, in batches, and
 * answers each with its SendResult, also in batches. An HTTP client costs about as much CPU per
 * request as the server side of a cash-out; here it runs beside the API instead of inside it.
 * Attempts wait in the sandbox's own queue (send-queue.ts) for a connection of their origin.
 */
const { connections, connectTimeoutMs, listeners: initial, receiverCa } = workerData as SenderOptions
/** Where the sandbox listens, as the main thread last said (null: its own address is allowed). */
let listeners: readonly Listener[] | null = initial
const agent = (client?: ClientIdentity) => webhookAgent({ keepAliveTimeout: 4000, connections, connectTimeoutMs, listening: () => listeners, tls: { ...(receiverCa !== undefined ? { receiverCa } : {}), ...(client !== undefined ? { client } : {}) } })
const dispatcher = agent()
/**
 * The connections that present the sandbox's client certificate, once the main thread has given it
 * (before the first attempt that asks): apart from the others, so an attempt that does not ask for it
 * never reuses a connection that presented it (the registration check's first request).
 */
let mutual: Dispatcher | null = null
let results: Array<[number, SendResult]> = []

function reply (id: number, result: SendResult): void {
  if (results.length === 0) setImmediate(flush)
  results.push([id, result])
}

function flush (): void {
  const batch = results
  results = []
  parentPort!.postMessage(batch)
}

const queue = new SendQueue<AttemptRequest>(connections, (a, controller) => sendAttempt(a.url, a.headers, a.body, { dispatcher: a.clientCertificate === true && mutual !== null ? mutual : dispatcher, timeoutMs: a.timeoutMs, controller }), reply)

parentPort!.on('message', (messages: WorkerMessage[]) => {
  for (const m of messages) {
    if (m.type === 'send') queue.add(m)
    else if (m.type === 'listeners') listeners = m.listeners
    else if (m.type === 'identity') mutual ??= agent(m.identity)
    else queue.cancel(m.id)
  }
})
