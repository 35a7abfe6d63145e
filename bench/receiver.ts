import { spawn } from 'node:child_process'

/**
 * A webhook receiver in its own process (it does not share the load generator's event loop): answers
 * 200 and counts, per path, the deliveries received and the distinct `X-Sandbox-Delivery-Id`s.
 */
const receiverSource = `
const http = require('node:http')
const seen = new Map()
const server = http.createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    let s = seen.get(req.url)
    if (!s) seen.set(req.url, s = { ids: new Set(), received: 0 })
    s.received++
    s.ids.add(String(req.headers['x-sandbox-delivery-id']))
    res.writeHead(200).end()
  })
})
server.keepAliveTimeout = 30000
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
process.on('message', path => { const s = seen.get(path); process.send({ path, received: s ? s.received : 0, distinct: s ? s.ids.size : 0 }) })
process.on('disconnect', () => process.exit(0))
`
export interface Receiver { port: number, counts: (path: string) => Promise<{ received: number, distinct: number }>, close: () => void }

export function startReceiver (): Promise<Receiver> {
  const child = spawn(process.execPath, ['-e', receiverSource], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  return new Promise(resolve => {
    child.once('message', (m: { port: number }) => resolve({
      port: m.port,
      counts: path => new Promise(resolve => {
        const on = (r: { path: string, received: number, distinct: number }): void => { if (r.path === path) { child.off('message', on); resolve(r) } }
        child.on('message', on)
        child.send(path)
      }),
      close: () => child.disconnect(),
    }))
  })
}
