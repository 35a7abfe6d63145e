import t from 'tap'
import { Agent } from 'undici'
import { sendAttempt, type SendResult } from '../../server/webhooks/sender.js'
import { SendQueue, type QueuedAttempt } from '../../server/webhooks/send-queue.js'
import { SenderThread } from '../../server/webhooks/sender-thread.js'
import { deadUrl, startReceiver } from '../helpers/receiver.js'

/**
 * One HTTP attempt (sendAttempt, what the sender thread runs) turns every outcome into data, and the
 * thread hands results back, or reports an attempt failed when the thread is lost, so the retry
 * policy sends it again. The flows in test/flows exercise the same through the whole sandbox.
 */
const dispatcher = new Agent({ connections: 4 })
t.teardown(() => dispatcher.close())
const send = (url: string, timeoutMs = 2000, controller = new AbortController()) =>
  sendAttempt(url, { 'content-type': 'application/json' }, '{"a":1}', { dispatcher, timeoutMs, controller })

t.test('an answer: its status and the first kilobyte of its body', async t => {
  const r = await startReceiver()
  t.teardown(() => r.close())
  r.script([{ status: 202, body: 'x'.repeat(3000) }, 500])
  const ok = await send(r.url)
  t.equal(ok.statusCode, 202)
  t.equal(ok.error, null)
  t.equal(ok.responseBody?.length, 1024)
  t.equal(ok.cancelled, false)
  t.equal((await r.nth(1)).body, '{"a":1}')
  const failed = await send(r.url)
  t.equal(failed.statusCode, 500, 'a non-2xx answer is a result, not an error: the caller decides')
  t.equal(failed.error, null)
})

t.test('a receiver that hangs is a TIMEOUT; one that resets or is gone is its network error', async t => {
  const r = await startReceiver()
  t.teardown(() => r.close())
  r.script(['hang', 'reset'])
  const hung = await send(r.url, 150)
  t.match(hung.error, /^TIMEOUT/)
  t.equal(hung.statusCode, null)
  const reset = await send(r.url)
  t.match(reset.error, /^[A-Z_]+: /, `reset: ${reset.error}`)
  const refused = await send(await deadUrl())
  t.match(refused.error, /^ECONNREFUSED/)
  const invalid = await send('not a url')
  t.match(invalid.error, /Invalid URL/, 'a URL that no longer parses (an old data file) is an attempt that failed')
})

t.test('cancelled by the sandbox (reset, close): a cancelled result, before or during the request', async t => {
  const r = await startReceiver()
  t.teardown(() => r.close())
  r.script(['hang'])
  const before = new AbortController()
  before.abort()
  t.same((await send(r.url, 2000, before)).cancelled, true)
  const during = new AbortController()
  const pending = send(r.url, 5000, during)
  await r.nth(1)
  during.abort()
  const result = await pending
  t.equal(result.cancelled, true)
  t.equal(result.error, 'CANCELLED')
})

t.test('an endless answer is not read past 64 KB', async t => {
  const { createServer } = await import('node:http')
  const server = createServer((_req, res) => {
    res.writeHead(200)
    const chunk = Buffer.alloc(16 * 1024, 'y')
    const pump = (): void => { while (res.write(chunk)); res.once('drain', pump) }
    pump()
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { server.closeAllConnections(); server.close() })
  const result = await send(`http://127.0.0.1:${(server.address() as any).port}/`, 5000)
  t.equal(result.statusCode, 200)
  t.equal(result.responseBody?.length, 1024)
})

t.test('waiting for a connection is not the receiver\'s time: its clock starts when the request is written', async t => {
  const { createServer } = await import('node:http')
  let received = 0
  const server = createServer((_req, res) => {
    received++
    setTimeout(() => res.end('ok'), 700)
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { server.closeAllConnections(); server.close() })
  const url = `http://127.0.0.1:${(server.address() as any).port}/`
  // One connection: the second attempt waits about 700 ms for it, then the receiver takes 700 ms
  // more, 1400 ms after it was handed over but within 1200 ms of being written (500 ms to spare, for
  // a loaded machine).
  const one = new Agent({ connections: 1 })
  t.teardown(() => one.close())
  const attempt = () => sendAttempt(url, {}, '{}', { dispatcher: one, timeoutMs: 1200, controller: new AbortController() })
  const [first, second] = await Promise.all([attempt(), attempt()])
  t.equal(first.statusCode, 200)
  t.equal(second.statusCode, 200, `the queued attempt was answered in time: ${second.error}`)
  t.equal(received, 2)
})

t.test('an attempt that never gets a connection fails in time, and was never sent', async t => {
  const r = await startReceiver()
  t.teardown(() => r.close())
  r.script(['hang'])
  const one = new Agent({ connections: 1 })
  t.teardown(() => one.destroy())
  const holder = sendAttempt(r.url, {}, '{}', { dispatcher: one, timeoutMs: 2000, controller: new AbortController() })
  // Once it holds the connection at the receiver: else a loaded machine can time the queued attempt out first.
  await r.nth(1)
  const queued = await sendAttempt(r.url, {}, '{}', { dispatcher: one, timeoutMs: 200, controller: new AbortController() })
  t.match(queued.error, /^TIMEOUT: nenhuma conexão/)
  t.equal(r.requests.length, 1, 'only the attempt holding the connection reached the receiver, so a retry cannot be a duplicate')
  t.match((await holder).error, /^TIMEOUT: sem resposta/)
  t.equal(r.requests.length, 1)
})

t.test('the sender thread: results come back per attempt; a lost thread fails what was out', async t => {
  const r = await startReceiver()
  t.teardown(() => r.close())
  const thread = new SenderThread({ connections: 4, connectTimeoutMs: 1000, listeners: null })
  t.teardown(() => thread.close())
  const first = await thread.send(r.url, {}, 'one', 2000).result
  t.equal(first.statusCode, 200)
  t.equal((await r.nth(1)).body, 'one')

  r.script(['hang'])
  const cancelled = thread.send(r.url, {}, 'two', 5000)
  await r.nth(2)
  cancelled.cancel()
  t.equal((await cancelled.result).cancelled, true, 'cancel reaches the thread')

  r.script(['hang'])
  const out = thread.send(r.url, {}, 'three', 5000)
  await r.nth(3)
  await (thread as unknown as { worker: { terminate: () => Promise<number> } }).worker.terminate()
  const lost = await out.result
  t.match(lost.error, /^SENDER_FAILED/)
  t.equal(lost.cancelled, false, 'reported as a failed attempt, so it is retried')

  const again = await thread.send(r.url, {}, 'four', 2000).result
  t.equal(again.statusCode, 200, 'the next attempt starts a new thread')
})

t.test('the sender thread: a burst beyond its connections waits in the sandbox\'s queue, and that wait never counts against an attempt', async t => {
  const { createServer } = await import('node:http')
  let received = 0
  const server = createServer((_req, res) => {
    received++
    setTimeout(() => res.end('ok'), 200)
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { server.closeAllConnections(); server.close() })
  const url = `http://127.0.0.1:${(server.address() as any).port}/`
  // Two connections, 20 attempts of 200 ms each: the last ones wait about 2 s for a connection, twice
  // their time-out, then take 200 ms of it.
  const thread = new SenderThread({ connections: 2, connectTimeoutMs: 1000, listeners: null })
  t.teardown(() => thread.close())
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => thread.send(url, {}, String(i), 1000).result))
  t.same(results.map(r => r.error).filter(e => e !== null), [], 'none timed out')
  t.same(results.map(r => r.statusCode), results.map(() => 200))
  t.equal(received, 20)
})

t.test('the send queue: at most its connections per origin, one attempt of an order at a time and in order, cancel at any stage', async t => {
  type A = QueuedAttempt & { name: string }
  const started: string[] = []
  const running = new Map<string, { resolve: (r: SendResult) => void, controller: AbortController }>()
  const done: Array<[number, string | null]> = []
  const ok: SendResult = { statusCode: 200, latencyMs: 1, error: null, responseBody: '', cancelled: false }
  const queue = new SendQueue<A>(2, (a, controller) => new Promise(resolve => {
    started.push(a.name)
    running.set(a.name, { resolve, controller })
    controller.signal.addEventListener('abort', () => resolve({ ...ok, statusCode: null, error: 'CANCELLED', cancelled: true }))
  }), (id, result) => { done.push([id, result.error]) })
  const end = async (name: string): Promise<void> => {
    running.get(name)!.resolve(ok)
    running.delete(name)
    await new Promise(resolve => setImmediate(resolve))
  }
  const at = 'http://127.0.0.1:1/'
  queue.add({ id: 1, url: `${at}cobr`, order: 'tx-1', name: 'tx-1 first' })
  queue.add({ id: 2, url: `${at}cobr`, order: 'tx-1', name: 'tx-1 second' })
  queue.add({ id: 3, url: `${at}cobr`, order: 'tx-2', name: 'tx-2 first' })
  queue.add({ id: 4, url: `${at}cobr`, name: 'unordered' })
  queue.add({ id: 5, url: 'http://127.0.0.2:1/', order: 'tx-1 elsewhere', name: 'other origin' })
  queue.add({ id: 6, url: `${at}cobr`, order: 'tx-3', name: 'tx-3 first' })
  queue.add({ id: 7, url: `${at}cobr`, order: 'tx-3', name: 'tx-3 second' })
  t.same(started, ['tx-1 first', 'tx-2 first', 'other origin'], 'two at a time per origin; a record\'s second waits for its first')
  await end('tx-2 first')
  t.same(started.at(-1), 'unordered', 'a free connection takes the next in line')
  queue.cancel(6)
  queue.cancel(7)
  t.same(done.slice(-2), [[6, 'CANCELLED'], [7, 'CANCELLED']], 'attempts cancelled while they wait end at once')
  await end('tx-1 first')
  t.same(started.at(-1), 'tx-1 second', 'the record\'s second goes once its first has ended')
  queue.cancel(3)
  queue.cancel(4)
  await new Promise(resolve => setImmediate(resolve))
  t.same(done.at(-1), [4, 'CANCELLED'], 'an attempt under way is aborted (one already ended is left as it was)')
  queue.add({ id: 8, url: 'not a url', name: 'unparsable' })
  t.equal(started.at(-1), 'unparsable', 'an unparsable URL goes to the attempt, which reports it')
  await end('unparsable')
  await end('tx-1 second')
  await end('other origin')
  t.equal(queue.size(), 0)
  t.same(started, ['tx-1 first', 'tx-2 first', 'other origin', 'unordered', 'tx-1 second', 'unparsable'], 'nothing cancelled ever started')
})
