import { connect } from 'node:net'

/**
 * One request written byte for byte on a fresh connection, and what came back until the server closed
 * it: for request targets an HTTP client would rewrite (`http://host/balance`, `//balance`,
 * `/%62alance`), for a Content-Length a client would not claim without sending the body, and for a body
 * sent chunked, whose length only what arrives tells. Its side of the connection ends once the request
 * is written, so a server that waits for more answers at once.
 */
export interface RawRequest {
  method: string
  target: string
  /** Host and `connection: close` are sent unless given; Content-Length is the body's unless given. */
  headers?: Record<string, string>
  body?: string
  chunked?: boolean
}

export interface RawAnswer {
  /** 0 when the connection closed without an answer. */
  status: number
  headers: Record<string, string>
  body: string
  json: () => any
}

export async function rawRequest (address: string, req: RawRequest): Promise<RawAnswer> {
  const body = req.body ?? ''
  const headers: Record<string, string> = { host: 'sandbox.test', connection: 'close', ...req.headers }
  if (req.chunked) headers['transfer-encoding'] = 'chunked'
  else if (req.body !== undefined) headers['content-length'] ??= String(Buffer.byteLength(body))
  const head = `${req.method} ${req.target} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`
  const text = req.chunked ? `${head}${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n` : head + body
  const { hostname, port } = new URL(address)
  const received = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = connect(Number(port), hostname, () => socket.end(text))
    socket.on('data', chunk => chunks.push(chunk))
    socket.on('close', () => resolve(Buffer.concat(chunks)))
    // A server that answered before reading the whole body (a 413) may close while it is still written.
    socket.on('error', err => ['ECONNRESET', 'EPIPE'].includes((err as NodeJS.ErrnoException).code ?? '') ? resolve(Buffer.concat(chunks)) : reject(err))
  })
  const raw = received.toString('utf8')
  const end = raw.indexOf('\r\n\r\n')
  if (end === -1) return { status: 0, headers: {}, body: raw, json: () => JSON.parse(raw) }
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n')
  const answerHeaders: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    answerHeaders[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const answer = raw.slice(end + 4)
  return { status: Number(statusLine.split(' ')[1]), headers: answerHeaders, body: answer, json: () => JSON.parse(answer) }
}
