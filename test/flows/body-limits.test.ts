import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { constants } from 'node:buffer'
import { connect, type AddressInfo } from 'node:net'
import { SNAPSHOT_BODY_LIMIT } from '../../server/routes/sandbox/system.js'
import { buildTestApp } from '../helpers/app.js'
import { rawRequest } from '../helpers/raw-http.js'
import { call, shapeProblem } from '../helpers/reliability.js'

/**
 * Bodies over their limit, sent to a listening sandbox: each is a 413 in the control plane's shape and
 * the sandbox keeps serving. A snapshot import whose Content-Length fell between V8's longest string and
 * the 512 MB the import once took was read whole, then threw ERR_STRING_TOO_LONG out of the process
 * (test/routes/body-limits.test.ts checks every operation's limit). The body is claimed, not sent: the
 * claim alone is refused.
 */

t.test('a snapshot import too long for one string is a 413, and the sandbox keeps serving', async t => {
  const app = await buildTestApp(t)
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  for (const length of [constants.MAX_STRING_LENGTH + 1, 512 * 1024 * 1024, SNAPSHOT_BODY_LIMIT + 1]) {
    const res = await rawRequest(address, { method: 'PUT', target: '/__sandbox/snapshot', headers: { 'content-type': 'application/json', 'content-length': String(length) }, body: '{"format":' })
    t.equal(res.status, 413, `Content-Length ${length}`)
    t.equal(shapeProblem('sandbox', 413, res.body), null, 'the control plane\'s shape')
    t.equal(res.json().message, 'The request body exceeds the maximum size')
  }
  const exported = await call(address, 'GET', '/__sandbox/snapshot')
  t.equal(exported.status, 200, 'still serving')
  t.equal((await call(address, 'PUT', '/__sandbox/snapshot', { body: exported.body })).status, 200, 'and importing')
})

t.test('a body sent chunked is refused once what arrived passes the limit', async t => {
  const app = await buildTestApp(t)
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const res = await rawRequest(address, { method: 'POST', target: '/__sandbox/accounts', headers: { 'content-type': 'application/json' }, body: `{"name":"${'x'.repeat(1024 * 1024)}"}`, chunked: true })
  t.equal(res.status, 413)
  t.equal(shapeProblem('sandbox', 413, res.body), null, 'the control plane\'s shape')
  t.equal((await call(address, 'GET', '/__sandbox/health')).status, 200, 'still serving')
})

/**
 * A request refused before its body was read, on a fresh connection that asked to close: the client
 * goes on sending the body after the answer has come (half-open allowed, so the server's end does
 * not stop it), then ends it. What the client saw: the errors of its socket and the answer.
 */
async function sendingAfterTheAnswer (t: Test, app: FastifyInstance, target: string, contentType: string): Promise<{ errors: string[], answer: string }> {
  const socket = connect({ port: (app.server.address() as AddressInfo).port, host: '127.0.0.1', allowHalfOpen: true })
  t.teardown(() => socket.destroy())
  const received: Buffer[] = []
  const errors: string[] = []
  socket.on('error', (err: NodeJS.ErrnoException) => errors.push(err.code ?? err.message))
  const closed = new Promise(resolve => socket.on('close', resolve))
  const answered = new Promise<void>(resolve => socket.on('data', chunk => {
    received.push(chunk)
    if (Buffer.concat(received).includes('\r\n\r\n')) resolve()
  }))
  const mb = `${(1024 * 1024).toString(16)}\r\n${'x'.repeat(1024 * 1024)}\r\n`
  const write = (text: string): Promise<void> => new Promise(resolve => socket.write(text, () => resolve()))
  await write(`POST ${target} HTTP/1.1\r\nhost: sandbox.test\r\nconnection: close\r\ncontent-type: ${contentType}\r\ntransfer-encoding: chunked\r\n\r\n` + mb + mb)
  await answered
  for (let i = 0; i < 8; i++) await write(mb)
  socket.end('0\r\n\r\n')
  await closed
  return { errors, answer: Buffer.concat(received).toString() }
}

t.test('a client still sending a refused body finishes sending it and reads the answer: the connection closes after the body, not in the middle', async t => {
  const app = await buildTestApp(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  for (const [target, contentType, status] of [['/__sandbox/accounts', 'application/json', 413], ['/__sandbox/accounts', 'text/plain', 415]] as const) {
    const { errors, answer } = await sendingAfterTheAnswer(t, app, target, contentType)
    t.same(errors, [], `${status}: no reset, what the client sent after the answer was read`)
    t.match(answer, new RegExp(`^HTTP/1\\.1 ${status} `), `${status}: the answer was read`)
  }
  t.equal((await call(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, 'GET', '/__sandbox/health')).status, 200, 'still serving')
})
