import t, { type Test } from 'tap'
import { connect, createServer, type AddressInfo, type Socket } from 'node:net'
import { lingerOnClose } from '../../server/linger.js'

/**
 * The lingering close on its own (server/linger.ts): once the server's side has ended, the connection
 * reads what the client still sends until the client ends its side, or closes once the time is up for
 * a client that never does. test/flows/body-limits.test.ts shows it after a 413.
 */

async function pair (t: Test): Promise<{ server: Socket, client: Socket }> {
  const listener = createServer({ allowHalfOpen: true })
  t.teardown(() => listener.close())
  await new Promise<void>(resolve => listener.listen(0, '127.0.0.1', resolve))
  const accepted = new Promise<Socket>(resolve => listener.once('connection', resolve))
  // Half-open allowed: the client goes on sending once the server's end has come.
  const client = connect({ port: (listener.address() as AddressInfo).port, host: '127.0.0.1', allowHalfOpen: true })
  const server = await accepted
  t.teardown(() => { client.destroy(); server.destroy() })
  return { server, client }
}

const closing = (s: Socket): Promise<void> => new Promise(resolve => s.once('close', () => resolve()))
const ending = (s: Socket): Promise<void> => new Promise(resolve => s.once('end', () => resolve()))

t.test('what the client sends after the server ended is read, and the connection closes once the client ends', async t => {
  const { server, client } = await pair(t)
  let read = 0
  server.on('data', chunk => { read += chunk.length })
  lingerOnClose(server, 60_000)
  server.destroySoon()
  await ending(client)
  const errors: string[] = []
  client.on('error', (err: NodeJS.ErrnoException) => errors.push(err.code ?? err.message))
  for (let i = 0; i < 4; i++) await new Promise<void>(resolve => client.write(Buffer.alloc(256 * 1024), () => resolve()))
  const closed = closing(server)
  client.end()
  await closed
  t.equal(read, 1024 * 1024, 'every byte sent after the end was read')
  t.same(errors, [], 'and none of the writes met a reset')
})

t.test('a client that never ends its side: the connection closes when the time is up', async t => {
  const { server, client } = await pair(t)
  lingerOnClose(server, 200)
  const closed = closing(server)
  server.destroySoon()
  await ending(client)
  t.equal(server.destroyed, false, 'still reading once its end has reached the client')
  let bound: NodeJS.Timeout | undefined
  const outcome = await Promise.race([closed.then(() => 'closed'), new Promise(resolve => { bound = setTimeout(resolve, 10_000, 'still open after 10 s') })])
  clearTimeout(bound)
  t.equal(outcome, 'closed', 'closed by the server when its time is up')
})
