import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/**
 * A real webhook receiver on 127.0.0.1 for flow tests: it records every request (headers and raw
 * body) and answers from a script, one step per request, then a default. A step can be a status code,
 * `hang` (never answer), or `reset` (destroy the socket without answering). `next()` resolves when
 * the next request arrives, so tests wait on events instead of sleeping.
 */
export type Step = number | 'hang' | 'reset' | { status: number, body?: string }

export interface ReceivedRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: string
  /** process.hrtime.bigint() at arrival, for latency measurements. */
  at: bigint
  json: () => any
}

export interface Receiver {
  url: string
  port: number
  requests: ReceivedRequest[]
  /** Answers of the next requests, in order; when exhausted, `fallback` (200 by default). */
  script: (steps: Step[], fallback?: Step) => void
  /** Resolves with the n-th request (1-based) once it has arrived. */
  nth: (n: number) => Promise<ReceivedRequest>
  /** The request after the last one `next` or `nth` handed out, once it has arrived. */
  next: () => Promise<ReceivedRequest>
  close: () => Promise<void>
}

export async function startReceiver (opts: { path?: string } = {}): Promise<Receiver> {
  let steps: Step[] = []
  let fallback: Step = 200
  const requests: ReceivedRequest[] = []
  const waiting: Array<{ n: number, resolve: (r: ReceivedRequest) => void }> = []
  const sockets = new Set<Socket>()

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', c => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const received: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, at: process.hrtime.bigint(), json: () => JSON.parse(body) }
      requests.push(received)
      for (const w of waiting.filter(w => w.n === requests.length)) {
        waiting.splice(waiting.indexOf(w), 1)
        w.resolve(received)
      }
      const step = steps.length > 0 ? steps.shift()! : fallback
      if (step === 'hang') return
      if (step === 'reset') {
        req.socket.destroy()
        return
      }
      const { status, body: answer } = typeof step === 'number' ? { status: step, body: `status ${step}` } : step
      res.writeHead(status, { 'content-type': 'text/plain' })
      res.end(answer ?? '')
    })
  })
  server.on('connection', s => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port

  // The highest request handed to the test so far: `next()` is the first one after it, even when it
  // arrived before the call (a sandbox that answers after the delivery went out is not a different case).
  let handed = 0
  const nth = (n: number): Promise<ReceivedRequest> => {
    handed = Math.max(handed, n)
    if (requests.length >= n) return Promise.resolve(requests[n - 1])
    return new Promise(resolve => waiting.push({ n, resolve }))
  }

  return {
    url: `http://127.0.0.1:${port}${opts.path ?? '/hook'}`,
    port,
    requests,
    script: (s, f) => {
      steps = [...s]
      if (f !== undefined) fallback = f
    },
    nth,
    next: () => nth(handed + 1),
    close: () => new Promise<void>(resolve => {
      for (const s of sockets) s.destroy()
      server.close(() => resolve())
    }),
  }
}

/** A port on 127.0.0.1 that refuses connections: a receiver that was listening and is gone. */
export async function deadUrl (): Promise<string> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>(resolve => server.close(() => resolve()))
  return `http://127.0.0.1:${port}/dead`
}
