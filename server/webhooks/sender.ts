import { request, type Dispatcher } from 'undici'
import { performance } from 'node:perf_hooks'

/**
 * One HTTP attempt of a delivery: POST the body, read at most the first kilobyte of the answer, and
 * turn whatever happened (an answer, a refused connection, a reset, a timeout) into a result. It never
 * throws: a receiver's failure is data for the delivery log, not an error of the sandbox.
 */
export interface SendResult {
  statusCode: number | null
  latencyMs: number
  /** null when the receiver answered (any status); the HTTP status decides success. */
  error: string | null
  responseBody: string | null
  /** The sandbox itself cancelled the attempt (shutdown, reset): record nothing. */
  cancelled: boolean
}

export interface SendOptions {
  dispatcher: Dispatcher
  timeoutMs: number
  /** Aborted when the sandbox closes or resets. */
  signal: AbortSignal
}

const KEPT_BYTES = 1024
/** Beyond this the answer is not read further (the connection is dropped instead of drained). */
const READ_LIMIT = 64 * 1024

class AttemptTimeout extends Error {}

export async function sendAttempt (url: string, headers: Record<string, string>, body: string, opts: SendOptions): Promise<SendResult> {
  const started = performance.now()
  const latency = () => Math.round((performance.now() - started) * 100) / 100
  if (opts.signal.aborted) return { statusCode: null, latencyMs: 0, error: 'CANCELLED', responseBody: null, cancelled: true }
  // One signal for both reasons to stop; the timeout covers connecting, the headers and the body.
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new AttemptTimeout()), opts.timeoutMs)
  const onCancel = () => controller.abort(opts.signal.reason)
  opts.signal.addEventListener('abort', onCancel, { once: true })
  try {
    const res = await request(url, { method: 'POST', headers, body, dispatcher: opts.dispatcher, signal: controller.signal })
    const chunks: Buffer[] = []
    let read = 0
    for await (const chunk of res.body) {
      const buf = chunk as Buffer
      if (read < KEPT_BYTES) chunks.push(buf)
      read += buf.length
      if (read >= READ_LIMIT) {
        res.body.destroy()
        break
      }
    }
    const responseBody = Buffer.concat(chunks).subarray(0, KEPT_BYTES).toString('utf8')
    return { statusCode: res.statusCode, latencyMs: latency(), error: null, responseBody, cancelled: false }
  } catch (err) {
    if (opts.signal.aborted) return { statusCode: null, latencyMs: latency(), error: 'CANCELLED', responseBody: null, cancelled: true }
    if (controller.signal.reason instanceof AttemptTimeout) {
      return { statusCode: null, latencyMs: latency(), error: `TIMEOUT: sem resposta completa em ${opts.timeoutMs} ms`, responseBody: null, cancelled: false }
    }
    return { statusCode: null, latencyMs: latency(), error: describe(err), responseBody: null, cancelled: false }
  } finally {
    clearTimeout(timer)
    opts.signal.removeEventListener('abort', onCancel)
  }
}

/** `CODE: message` of the innermost cause, e.g. `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9`. */
function describe (err: unknown): string {
  let e = err as { code?: string, message?: string, cause?: unknown }
  while (e.cause && typeof e.cause === 'object') e = e.cause as typeof e
  const code = e.code ?? (err as { code?: string }).code ?? 'NETWORK_ERROR'
  return `${code}: ${e.message ?? String(err)}`
}
