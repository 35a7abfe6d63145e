import { connect } from 'node:net'

/**
 * One request written byte for byte on a fresh connection, and what came back until the server
 * closed it: for request targets an HTTP client would rewrite (`http://host/balance`, `//balance`,
 * `/%62alance`) and for a Content-Length a client would not claim without sending the body. Ends its
 * side of the connection once the request is written, so a server that waits for more answers at once.
 */
export interface RawAnswer {
  /** 0 when the connection closed without an answer. */
  status: number
  headers: Record<string, string>
  body: string
  json: () => any
}

export async function rawRequest (address: string, text: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(address)
  const received = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = connect(Number(port), hostname, () => socket.end(text))
    socket.on('data', chunk => chunks.push(chunk))
    socket.on('close', () => resolve(Buffer.concat(chunks)))
    socket.on('error', err => (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve(Buffer.concat(chunks)) : reject(err))
  })
  const raw = received.toString('utf8')
  const end = raw.indexOf('\r\n\r\n')
  if (end === -1) return { status: 0, headers: {}, body: raw, json: () => JSON.parse(raw) }
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const body = raw.slice(end + 4)
  return { status: Number(statusLine.split(' ')[1]), headers, body, json: () => JSON.parse(body) }
}
