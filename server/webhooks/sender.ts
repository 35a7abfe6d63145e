import type { Dispatcher } from 'undici'
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

/**
 * Through undici's dispatch API with a handler rather than `request()`: no response stream, promise
 * chain or signal listeners per attempt. Measured against a local receiver, 41 µs of CPU per
 * request instead of 100 to 140, and this runs once per delivery.
 */
export function sendAttempt (url: string, headers: Record<string, string>, body: string, opts: SendOptions): Promise<SendResult> {
  const started = performance.now()
  const latency = () => Math.round((performance.now() - started) * 100) / 100
  const { controller } = opts
  if (controller.signal.aborted) return Promise.resolve({ statusCode: null, latencyMs: 0, error: 'CANCELLED', responseBody: null, cancelled: true })
  return new Promise(resolve => {
    let settled = false
    let request: Dispatcher.DispatchController | null = null
    let statusCode: number | null = null
    const chunks: Buffer[] = []
    let read = 0
    const finish = (result: SendResult): void => {
      if (settled) return
      settled = true
      clearTimeout(queued)
      clearTimeout(timer)
      controller.signal.removeEventListener('abort', onAbort)
      resolve(result)
    }
    const answered = (): SendResult =>
      ({ statusCode, latencyMs: latency(), error: null, responseBody: Buffer.concat(chunks).subarray(0, KEPT_BYTES).toString('utf8'), cancelled: false })
    // Cancel (the sandbox closes or resets) or timeout: the result is known now, even for a request
    // still queued for a connection, which is aborted as soon as it starts.
    const onAbort = (): void => {
      const reason = controller.signal.reason
      if (reason instanceof AttemptTimeout) finish({ statusCode: null, latencyMs: latency(), error: reason.message, responseBody: null, cancelled: false })
      else finish({ statusCode: null, latencyMs: latency(), error: 'CANCELLED', responseBody: null, cancelled: true })
      request?.abort(reason)
    }
    controller.signal.addEventListener('abort', onAbort, { once: true })
    // Two clocks of the same length. The receiver's starts when the request is written to its
    // connection and covers the headers and the body: time spent waiting behind other deliveries for
    // a free connection (a burst, an overloaded machine) is the sandbox's, and counting it made a
    // receiver that answered in time look late, so the retry delivered the event twice. The
    // connection's starts now and ends when the request is written: a connect that never completes
    // still fails in time, and since nothing was written, its retry cannot be a duplicate. The sender
    // thread hands an attempt over only once a connection of its origin is free (send-queue.ts), so
    // this clock starts with the connection, not in the sandbox's own queue.
    let timer: ReturnType<typeof setTimeout> | undefined
    const queued = setTimeout(() => controller.abort(new AttemptTimeout(`TIMEOUT: nenhuma conexão com o receptor em ${opts.timeoutMs} ms`)), opts.timeoutMs)
    let target: URL
    try {
      target = new URL(url)
    } catch (err) {
      finish({ statusCode: null, latencyMs: latency(), error: describe(err), responseBody: null, cancelled: false })
      return
    }
    opts.dispatcher.dispatch({ origin: target.origin, path: target.pathname + target.search, method: 'POST', headers, body }, {
      onRequestStart (c) {
        request = c
        if (settled) {
          c.abort(controller.signal.reason ?? new Error('attempt over'))
          return
        }
        clearTimeout(queued)
        timer = setTimeout(() => controller.abort(new AttemptTimeout(`TIMEOUT: sem resposta completa em ${opts.timeoutMs} ms`)), opts.timeoutMs)
      },
      onResponseStart (_c, status) {
        statusCode = status
      },
      onResponseData (c, chunk) {
        if (read < KEPT_BYTES) chunks.push(chunk)
        read += chunk.length
        // Not read further: the connection is dropped instead of drained.
        if (read >= READ_LIMIT) {
          finish(answered())
          c.abort(new Error('answer too long'))
        }
      },
      onResponseEnd () {
        finish(answered())
      },
      onResponseError (_c, err) {
        finish({ statusCode: null, latencyMs: latency(), error: describe(err), responseBody: null, cancelled: false })
      },
    })
  })
}

/**
 * The codes with which an https receiver's server certificate fails the sandbox's check (OpenSSL's
 * verification errors as Node names them, and a name the certificate does not cover).
 */
export const SERVER_CERTIFICATE_ERRORS: ReadonlySet<string> = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN', 'CERT_UNTRUSTED', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_SIGNATURE_FAILURE', 'CERT_REVOKED',
  'INVALID_CA', 'PATH_LENGTH_EXCEEDED', 'INVALID_PURPOSE', 'CERT_REJECTED', 'HOSTNAME_MISMATCH', 'ERR_TLS_CERT_ALTNAME_INVALID',
])

/**
 * `CODE: message` of the innermost cause, e.g. `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9`; a
 * server certificate the sandbox does not trust says so, and what makes it trusted.
 */
function describe (err: unknown): string {
  let e = err as { code?: string, message?: string, cause?: unknown }
  while (e.cause && typeof e.cause === 'object') e = e.cause as typeof e
  const code = e.code ?? (err as { code?: string }).code ?? 'NETWORK_ERROR'
  const reason = `${code}: ${e.message ?? String(err)}`
  return SERVER_CERTIFICATE_ERRORS.has(code)
    ? `${reason} (o certificado TLS do receptor não foi aceito: o sandbox confia nas CAs do Node, em NODE_EXTRA_CA_CERTS e em --webhook-receiver-ca)`
    : reason
}
