import t from 'tap'
import { hostname, networkInterfaces } from 'node:os'
import { addressReaches, canonicalAddress, reachesListener } from '../../server/webhooks/own-address.js'
import { sameReceiver } from '../../server/webhooks/registrations.js'

/** Which receiver URLs reach the sandbox itself, for each kind of address it may listen on (docs/assumptions.md, Webhooks). */
const reaches = (url: string, address: string, port = 8080) => reachesListener(new URL(url), [{ address, port }])

t.test('a listener on an any-address is reached by loopback hosts, localhost names, the host name and the machine\'s addresses', async t => {
  for (const url of ['http://127.0.0.1:8080/', 'http://[::1]:8080/', 'http://localhost:8080/', 'http://x.localhost:8080/', 'http://ip6-localhost:8080/', `http://${hostname()}:8080/`]) {
    t.ok(reaches(url, '0.0.0.0'), url)
    t.ok(reaches(url, '::'), `${url} (::)`)
  }
  const external = Object.values(networkInterfaces()).flat().find(i => i && !i.internal && i.family === 'IPv4')
  if (external) t.ok(reaches(`http://${external.address}:8080/`, '0.0.0.0'), `this machine's ${external.address}`)
  t.notOk(reaches('http://192.0.2.1:8080/', '0.0.0.0'), 'an address of another machine is not')
  t.notOk(reaches('http://127.0.0.1:8081/', '0.0.0.0'), 'another port is not')
  t.ok(reaches('http://localhost/', '0.0.0.0', 80), 'the default port counts as written')
  t.ok(reaches('https://localhost/', '0.0.0.0', 443))
})

t.test('a listener on a loopback address is reached by loopback hosts only', async t => {
  t.ok(reaches('http://localhost:8080/', '127.0.0.1'))
  t.ok(reaches('http://0.0.0.0:8080/', '127.0.0.1'), 'connecting to 0.0.0.0 reaches the loopback')
  t.notOk(reaches('http://192.0.2.1:8080/', '127.0.0.1'))
})

t.test('a listener on another address is reached by that address (and the host name)', async t => {
  t.ok(reaches('http://192.0.2.10:8080/', '192.0.2.10'))
  t.ok(reaches(`http://${hostname()}:8080/`, '192.0.2.10'))
  t.notOk(reaches('http://127.0.0.1:8080/', '192.0.2.10'), 'a loopback receiver is another process then')
  t.notOk(reaches('http://192.0.2.11:8080/', '192.0.2.10'))
})

t.test('stored URLs compare in normalised form, and a stored URL that does not parse is no receiver', async t => {
  t.ok(sameReceiver('https://A.test#x', 'https://a.test/'))
  t.notOk(sameReceiver('not a url', 'https://a.test/'))
})

t.test('a resolved address is judged as the URL\'s would be: an IPv4-mapped IPv6 address is its IPv4', async t => {
  t.equal(canonicalAddress('::ffff:127.0.0.1'), '127.0.0.1', 'as a resolver writes it')
  t.equal(canonicalAddress('[::FFFF:7F00:1]'), '127.0.0.1', 'as the URL parser writes it')
  t.equal(canonicalAddress('::1'), '::1')
  for (const address of ['127.0.0.1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::1', '0.0.0.0']) t.ok(addressReaches(address, 8080, [{ address: '127.0.0.1', port: 8080 }]), address)
  t.notOk(addressReaches('192.0.2.1', 8080, [{ address: '127.0.0.1', port: 8080 }]))
  t.ok(addressReaches('::ffff:c000:20a', 8080, [{ address: '192.0.2.10', port: 8080 }]), 'a mapped form of the listener\'s own address')
  t.ok(reaches('http://[::ffff:c000:20a]:8080/', '192.0.2.10'), 'written so in a URL too')
})
