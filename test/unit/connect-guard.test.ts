import t, { type Test } from 'tap'
import { createServer, type AddressInfo } from 'node:net'
import type { LookupAddress } from 'node:dns'
import { webhookAgent, type Lookup } from '../../server/webhooks/connect-guard.js'
import type { Listener } from '../../server/webhooks/own-address.js'
import { sendAttempt } from '../../server/webhooks/sender.js'
import { startReceiver } from '../helpers/receiver.js'

/**
 * The sender's connections (server/webhooks/connect-guard.ts): a receiver's name is resolved as the
 * connection is made, each address checked against where the sandbox listens, and the connection goes
 * to the addresses that one lookup gave. Names here are answered by a resolver the test gives (none of
 * them exists in DNS), so a request that arrives proves the connection used the checked answer.
 */

/** A stand-in for the sandbox's listener: a TCP server that counts the connections it gets. */
async function sandboxListener (t: Test) {
  let connections = 0
  const server = createServer(socket => { connections++; socket.destroy() })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>(resolve => server.close(() => resolve())))
  return { port: (server.address() as AddressInfo).port, connections: () => connections }
}

/** A resolver of made-up names, counting its calls. */
function resolver (names: Record<string, LookupAddress[]>) {
  const calls: string[] = []
  const lookup: Lookup = (hostname, _options, callback) => {
    calls.push(hostname)
    const found = names[hostname]
    setImmediate(() => found === undefined ? callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []) : callback(null, found))
  }
  return { lookup, calls }
}

const send = (agent: ReturnType<typeof webhookAgent>, url: string) =>
  sendAttempt(url, { 'content-type': 'application/json' }, '{}', { dispatcher: agent, timeoutMs: 3000, controller: new AbortController() })

function agentFor (t: Test, listeners: Listener[] | null, lookup: Lookup) {
  const agent = webhookAgent({ connections: 4, connectTimeoutMs: 2000, keepAliveTimeout: 1000, listening: () => listeners, lookup })
  t.teardown(() => agent.close())
  return agent
}

t.test('a name that resolves to the sandbox\'s listener is not connected to, whatever the name, and says why', async t => {
  const sandbox = await sandboxListener(t)
  const { lookup, calls } = resolver({
    'shop.test': [{ address: '127.0.0.1', family: 4 }],
    'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
    'split.test': [{ address: '192.0.2.1', family: 4 }, { address: '127.0.0.1', family: 4 }],
  })
  const agent = agentFor(t, [{ address: '127.0.0.1', port: sandbox.port }], lookup)
  for (const name of ['shop.test', 'mapped.test', 'split.test']) {
    const result = await send(agent, `http://${name}:${sandbox.port}/__sandbox/reset`)
    t.match(result.error, /^SELF_ADDRESS: a URL aponta para o próprio sandbox/, `${name}: ${result.error}`)
    t.equal(result.statusCode, null)
  }
  t.same(calls, ['shop.test', 'mapped.test', 'split.test'], 'each name resolved once, as its connection was made')
  for (const address of ['127.0.0.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]']) {
    t.match((await send(agent, `http://${address}:${sandbox.port}/x`)).error, /^SELF_ADDRESS: /, `the address ${address} as written`)
  }
  t.equal(sandbox.connections(), 0, 'the sandbox was never reached')
})

t.test('a name that resolves elsewhere is connected to at the address its lookup gave: there is no second resolution to differ', async t => {
  const sandbox = await sandboxListener(t)
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  const { lookup, calls } = resolver({ 'erp.test': [{ address: '127.0.0.1', family: 4 }] })
  const agent = agentFor(t, [{ address: '127.0.0.1', port: sandbox.port }], lookup)
  const result = await send(agent, `http://erp.test:${receiver.port}/hook`)
  t.equal(result.error, null)
  t.equal(result.statusCode, 200)
  const got = await receiver.nth(1)
  t.equal(got.headers.host, `erp.test:${receiver.port}`, 'the request names the receiver as registered')
  t.same(calls, ['erp.test'], 'one lookup, whose checked answer the connection used (erp.test is in no DNS)')
  t.match((await send(agent, 'http://nowhere.test:9/x')).error, /^ENOTFOUND: /, 'a name that does not resolve fails its attempt, saying so')
})

t.test('with SANDBOX_SELF_WEBHOOKS=enabled (no listeners to keep away from) the sandbox\'s own address is connected to', async t => {
  const sandbox = await sandboxListener(t)
  const { lookup } = resolver({ 'shop.test': [{ address: '127.0.0.1', family: 4 }] })
  const agent = agentFor(t, null, lookup)
  const result = await send(agent, `http://shop.test:${sandbox.port}/x`)
  t.notMatch(result.error ?? '', /SELF_ADDRESS/)
  t.equal(sandbox.connections(), 1)
})
