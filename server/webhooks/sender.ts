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
  /**
   * The attempt's own controller, which the sandbox aborts when it closes or resets (and the attempt
   * aborts on its timeout): one controller per attempt, no listeners between signals, since every
   * settlement with a receiver makes at least one attempt.
   */
  controller: AbortController
}

const KEPT_BYTES = 1024
/** Beyond this the answer is not read further (the connection is dropped instead of drained). */
const READ_LIMIT = 64 * 1024

class AttemptTimeout extends Error {}

export async function sendAttempt (url: string, headers: Record<string, string>, body: string, opts: SendOptions): Promise<SendResult> {
  const started = performance.now()
  const latency = () => Math.round((performance.now() - started) * 100) / 100
  const { controller } = opts
  if (controller.signal.aborted) return { statusCode: null, latencyMs: 0, error: 'CANCELLED', responseBody: null, cancelled: true }
  // The timeout covers connecting, the headers and the body.
  const timer = setTimeout(() => controller.abort(new AttemptTimeout()), opts.timeoutMs)
  try {
    const res = await request(url, { method: 'POST', headers, body, dispatcher: opts.dispatcher, signal: controller.signal })
    const responseBody = await readStart(res.body)
    return { statusCode: res.statusCode, latencyMs: latency(), error: null, responseBody, cancelled: false }
  } catch (err) {
    if (controller.signal.reason instanceof AttemptTimeout) {
      return { statusCode: null, latencyMs: latency(), error: `TIMEOUT: sem resposta completa em ${opts.timeoutMs} ms`, responseBody: null, cancelled: false }
    }
    if (controller.signal.aborted) return { statusCode: null, latencyMs: latency(), error: 'CANCELLED', responseBody: null, cancelled: true }
    return { statusCode: null, latencyMs: latency(), error: describe(err), responseBody: null, cancelled: false }
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The first kilobyte of an answer, reading it to the end (so the connection can be reused) unless it
 * goes past READ_LIMIT, when the body is destroyed instead. Events rather than an async iterator:
 * this runs once per attempt and the iterator's promises were a visible cost.
 */
function readStart (stream: Dispatcher.ResponseData['body']): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let read = 0
    const done = (): void => resolve(Buffer.concat(chunks).subarray(0, KEPT_BYTES).toString('utf8'))
    stream.on('data', (chunk: Buffer) => {
      if (read < KEPT_BYTES) chunks.push(chunk)
      read += chunk.length
      if (read >= READ_LIMIT) {
        stream.destroy()
        done()
      }
    })
    stream.once('end', done)
    stream.once('error', reject)
  })
}

/** `CODE: message` of the innermost cause, e.g. `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9`. */
function describe (err: unknown): string {
  let e = err as { code?: string, message?: string, cause?: unknown }
  while (e.cause && typeof e.cause === 'object') e = e.cause as typeof e
  const code = e.code ?? (err as { code?: string }).code ?? 'NETWORK_ERROR'
  return `${code}: ${e.message ?? String(err)}`
}
