import t, { type Test } from 'tap'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import type { NetworkInterfaceInfo } from 'node:os'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { StartupError } from '../../server/errors/startup.js'
import { generateClientCertificate } from '../../server/auth/certificates.js'
import { loadFixtures } from '../../server/fixtures.js'
import { announcement, describeFsError, failureLines, listenFailure, listenedAddresses, readTls, readWebhookTls, shows, startupLines } from '../../server/startup.js'

/**
 * What the process prints at start (server/startup.ts): a failed start in one line, the addresses
 * really listened on, the dashboard and docs, and the warning for a control plane open to the network.
 * test/flows/startup.test.ts checks the same through the real process.
 */

const bound = (address: string, port = 8080): AddressInfo => ({ address, port, family: address.includes(':') ? 'IPv6' : 'IPv4' })
const iface = (address: string, extra: Partial<NetworkInterfaceInfo> = {}): NetworkInterfaceInfo => ({
  address, netmask: '', mac: '00:00:00:00:00:00', internal: false, cidr: null, ...(address.includes(':') ? { family: 'IPv6', scopeid: 0 } : { family: 'IPv4' }), ...extra,
} as NetworkInterfaceInfo)
const machine = {
  lo: [iface('127.0.0.1', { internal: true }), iface('::1', { internal: true })],
  eth0: [iface('192.0.2.2'), iface('fd00::2'), iface('fe80::1', { scopeid: 4 } as Partial<NetworkInterfaceInfo>)],
}

function scratch (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'pix-startup-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('a line shows when its level is at or above LOG_LEVEL; silent shows nothing', async t => {
  t.same(['trace', 'debug', 'info', 'warn', 'error', 'silent', undefined, 'loud'].map(l => [shows(l, 'info'), shows(l, 'warn'), shows(l, 'debug')]), [
    [true, true, true], [true, true, true], [true, true, false], [false, true, false], [false, false, false], [false, false, false], [true, true, false], [true, true, false],
  ])
})

t.test('a failed start is one line; its stack trace only at debug or trace', async t => {
  const startup = new StartupError('port 8080 of 127.0.0.1 is already in use: use --port or PORT to choose another', 1)
  t.same(failureLines(startup, 'info'), ['pix-sandbox: port 8080 of 127.0.0.1 is already in use: use --port or PORT to choose another'])
  t.same(failureLines(new StartupError('a message\nover two lines'), undefined), ['pix-sandbox: a message over two lines'], 'a line break in a message is not a second line')
  const cause = new Error('listen EADDRINUSE')
  const [line, stack] = failureLines(Object.assign(startup, { cause }), 'debug')
  t.equal(line, 'pix-sandbox: port 8080 of 127.0.0.1 is already in use: use --port or PORT to choose another')
  t.equal(stack, cause.stack, 'at debug, the stack of what caused it')
  t.match(failureLines(new StartupError('bad'), 'trace')[1], /^StartupError: bad\n\s+at /)

  const boom = new TypeError('Cannot read properties of undefined (reading \'map\')')
  t.same(failureLines(boom, undefined), ['pix-sandbox: failed to start: TypeError: Cannot read properties of undefined (reading \'map\') (LOG_LEVEL=debug prints the stack trace)'])
  t.same(failureLines(boom, 'debug'), ['pix-sandbox: failed to start: TypeError: Cannot read properties of undefined (reading \'map\')', boom.stack])
  t.same(failureLines('a thrown string', 'debug'), ['pix-sandbox: failed to start: a thrown string'])
})

t.test('a failed listen says what to change, in the settings\' words', async t => {
  const failure = (code: string) => listenFailure(Object.assign(new Error(`listen ${code}`), { code }), '127.0.0.1', 8080) as StartupError
  t.equal(failure('EADDRINUSE').message, 'port 8080 of 127.0.0.1 is already in use: use --port or PORT to choose another (0 picks a free one)')
  t.equal(failure('EADDRINUSE').exitCode, 1, 'something else holds the port: not a bad setting')
  t.match((failure('EADDRINUSE').cause as Error).message, 'listen EADDRINUSE', 'the cause is kept for the debug stack')
  t.equal(failure('EACCES').message, 'not allowed to listen on port 8080 of 127.0.0.1: use --port or PORT to choose one above 1023')
  t.equal(failure('EADDRNOTAVAIL').message, 'host 127.0.0.1 is not an address of this machine: use --host or HOST (127.0.0.1 for this machine only, 0.0.0.0 for every interface)')
  t.equal(failure('EADDRNOTAVAIL').exitCode, 2)
  t.match(failure('ENOTFOUND').message, 'does not resolve to an address: use --host or HOST')
  t.match(failure('EAI_AGAIN').message, 'does not resolve')
  const other = new Error('something else')
  t.equal(listenFailure(other, 'x', 1), other, 'anything else is left as it is: an unexpected failure')
})

t.test('the TLS certificate and key are read and checked before the start', async t => {
  t.equal(readTls({}), undefined)
  t.equal(readTls({ tlsCert: 'a.pem' }), undefined, 'both or neither (config.ts refuses one alone)')
  const certs = fileURLToPath(new URL('../../fixtures/certs/', import.meta.url))
  const tls = readTls({ tlsCert: join(certs, 'default-client.crt.pem'), tlsKey: join(certs, 'default-client.key.pem') })
  t.match(tls?.cert.toString(), 'BEGIN CERTIFICATE')
  t.match(tls?.key.toString(), 'PRIVATE KEY')

  const dir = scratch(t)
  writeFileSync(join(dir, 'junk.pem'), 'not a pem')
  t.throws(() => readTls({ tlsCert: join(dir, 'missing.pem'), tlsKey: join(certs, 'default-client.key.pem') }),
    new StartupError(`tlsCert (--tls-cert / SANDBOX_TLS_CERT): cannot read ${join(dir, 'missing.pem')}: no such file or folder`))
  t.throws(() => readTls({ tlsCert: join(dir, 'junk.pem'), tlsKey: join(certs, 'default-client.key.pem') }),
    new StartupError(`tlsCert (--tls-cert / SANDBOX_TLS_CERT): ${join(dir, 'junk.pem')} is not a PEM certificate`))
  t.throws(() => readTls({ tlsCert: join(certs, 'default-client.crt.pem'), tlsKey: join(dir, 'junk.pem') }),
    new StartupError(`tlsKey (--tls-key / SANDBOX_TLS_KEY): ${join(dir, 'junk.pem')} is not a PEM private key`))
  t.throws(() => readTls({ tlsCert: dir, tlsKey: join(dir, 'junk.pem') }), { message: /cannot read .*: it is a folder, not a file$/, exitCode: 2 })
})

t.test('the webhooks\' client certificate, its key and the receivers\' CA are read and checked before the start', async t => {
  const certs = fileURLToPath(new URL('../../fixtures/certs/', import.meta.url))
  const shipped = readWebhookTls({})
  t.same(shipped, { client: { certificate: readFileSync(join(certs, 'webhook-client.crt.pem'), 'utf8'), privateKey: readFileSync(join(certs, 'webhook-client.key.pem'), 'utf8'), ca: readFileSync(join(certs, 'webhook-ca.crt.pem'), 'utf8') } },
    'none given: the identity shipped in fixtures/certs/, whose CA is webhook-ca.crt.pem')
  const cert = join(certs, 'default-client.crt.pem')
  const key = join(certs, 'default-client.key.pem')
  const given = readWebhookTls({ webhookClientCert: cert, webhookClientKey: key, webhookReceiverCa: cert })
  const pem = readFileSync(cert, 'utf8').trim()
  t.equal(given.client?.certificate.trim(), pem)
  t.equal(given.client?.ca.trim(), pem, 'a certificate alone (self-signed) is its own CA')
  t.match(given.client?.privateKey, 'PRIVATE KEY')
  t.equal(given.receiverCa?.trim(), pem)

  const dir = scratch(t)
  writeFileSync(join(dir, 'junk.pem'), 'not a pem')
  writeFileSync(join(dir, 'chain.pem'), `${pem}\n${pem}\n`)
  t.equal(readWebhookTls({ webhookClientCert: join(dir, 'chain.pem'), webhookClientKey: key }).client?.ca.trim(), pem, 'what follows the certificate is its CA')
  const other = (await generateClientCertificate('OTHER', 2, Date.now())).privateKey
  writeFileSync(join(dir, 'other.key'), other)
  t.throws(() => readWebhookTls({ webhookClientCert: cert, webhookClientKey: join(dir, 'other.key') }),
    new StartupError(`webhookClientCert (--webhook-client-cert / SANDBOX_WEBHOOK_CLIENT_CERT): the key of --webhook-client-key ${join(dir, 'other.key')} is not the key of the certificate in ${cert}`))
  t.throws(() => readWebhookTls({ webhookClientCert: join(dir, 'junk.pem'), webhookClientKey: key }),
    new StartupError(`webhookClientCert (--webhook-client-cert / SANDBOX_WEBHOOK_CLIENT_CERT): ${join(dir, 'junk.pem')} is not a PEM certificate`))
  t.throws(() => readWebhookTls({ webhookClientCert: cert, webhookClientKey: join(dir, 'junk.pem') }),
    new StartupError(`webhookClientKey (--webhook-client-key / SANDBOX_WEBHOOK_CLIENT_KEY): ${join(dir, 'junk.pem')} is not a PEM private key`))
  t.throws(() => readWebhookTls({ webhookReceiverCa: join(dir, 'missing.pem') }),
    new StartupError(`webhookReceiverCa (--webhook-receiver-ca / SANDBOX_WEBHOOK_RECEIVER_CA): cannot read ${join(dir, 'missing.pem')}: no such file or folder`))
  t.throws(() => readWebhookTls({ webhookReceiverCa: join(dir, 'junk.pem') }),
    new StartupError(`webhookReceiverCa (--webhook-receiver-ca / SANDBOX_WEBHOOK_RECEIVER_CA): ${join(dir, 'junk.pem')} is not a PEM file of CA certificates`))
})

t.test('file errors in words', async t => {
  t.equal(describeFsError(Object.assign(new Error('x'), { code: 'EACCES' })), 'permission denied')
  t.equal(describeFsError(Object.assign(new Error('x'), { code: 'EPERM' })), 'permission denied')
  t.equal(describeFsError(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' })), 'EIO: i/o error')
})

t.test('a fixtures folder that cannot be read or parsed stops the start naming the file', async t => {
  const dir = scratch(t)
  t.throws(() => loadFixtures(join(dir, 'missing')), new StartupError(`fixtures (--fixtures / SANDBOX_FIXTURES): cannot read ${join(dir, 'missing', 'default.json')}: no such file or folder`))
  writeFileSync(join(dir, 'default.json'), '{"accounts": [')
  t.throws(() => loadFixtures(dir), { message: new RegExp(`^fixtures \\(--fixtures / SANDBOX_FIXTURES\\): ${join(dir, 'default.json')} is not valid JSON: `), exitCode: 2 })
})

t.test('the addresses really listened on: the one bound, or every interface address for a wildcard', async t => {
  t.same(listenedAddresses([bound('127.0.0.1')], machine), ['127.0.0.1'])
  t.same(listenedAddresses([bound('0.0.0.0')], machine), ['127.0.0.1', '192.0.2.2'], '0.0.0.0 takes IPv4 only')
  t.same(listenedAddresses([bound('::')], machine), ['127.0.0.1', '::1', '192.0.2.2', 'fd00::2', 'fe80::1%eth0'], ':: is dual-stack; a link-local address carries its interface')
  t.same(listenedAddresses([bound('127.0.0.1'), bound('::1')], machine), ['127.0.0.1', '::1'], 'localhost binds one socket per address')
  t.same(listenedAddresses([bound('0.0.0.0'), bound('127.0.0.1')], machine), ['127.0.0.1', '192.0.2.2'], 'each address once')
  t.same(listenedAddresses([bound('0.0.0.0')], { lo: undefined }), [], 'an interface with no address')
})

t.test('the start-up lines: addresses, dashboard and docs; a warning only when open to the network without a token', async t => {
  const local = announcement([bound('127.0.0.1')], machine, { https: false })
  t.same(local, { urls: ['http://127.0.0.1:8080'], url: 'http://127.0.0.1:8080', dashboard: 'http://127.0.0.1:8080/dashboard', docs: 'http://127.0.0.1:8080/docs' })
  t.same(startupLines(local, { version: '1.2.3', seed: 'abc' }, 'info'), [
    'pix-sandbox 1.2.3 listening on http://127.0.0.1:8080 (seed abc, state in memory)',
    'pix-sandbox: dashboard http://127.0.0.1:8080/dashboard, API docs http://127.0.0.1:8080/docs',
  ])
  t.same(announcement([bound('::1')], machine, { https: true }).urls, ['https://[::1]:8080'], 'IPv6 in brackets, https with TLS')

  const open = announcement([bound('0.0.0.0')], machine, { https: false })
  t.same(open.urls, ['http://127.0.0.1:8080', 'http://192.0.2.2:8080'])
  t.equal(open.dashboard, 'http://127.0.0.1:8080/dashboard', 'the person at this machine opens the loopback address')
  t.equal(open.warning, 'listening beyond this machine (0.0.0.0) with no SANDBOX_ADMIN_TOKEN: anyone on the network can use the control plane (/__sandbox), with every account\'s credentials and keys; set SANDBOX_ADMIN_TOKEN (--admin-token) or listen on 127.0.0.1 (HOST, --host)')
  const lines = startupLines(open, { version: '1.2.3', seed: 'abc', data: '/var/pix/state.json' }, undefined)
  t.same(lines, [
    'pix-sandbox 1.2.3 listening on http://127.0.0.1:8080, http://192.0.2.2:8080 (seed abc, state in /var/pix/state.json)',
    'pix-sandbox: dashboard http://127.0.0.1:8080/dashboard, API docs http://127.0.0.1:8080/docs',
    `pix-sandbox: warning: ${open.warning}`,
  ])
  t.same(startupLines(open, { version: '1.2.3', seed: 'abc' }, 'warn'), [`pix-sandbox: warning: ${open.warning}`], 'LOG_LEVEL=warn keeps only the warning')
  t.same(startupLines(open, { version: '1.2.3', seed: 'abc' }, 'silent'), [], 'LOG_LEVEL=silent prints nothing')

  t.equal(announcement([bound('0.0.0.0')], machine, { https: false, adminToken: 'a-long-admin-token' }).warning, undefined, 'with an admin token the control plane is closed')
  const specific = announcement([bound('192.0.2.2')], machine, { https: false })
  t.equal(specific.dashboard, 'http://192.0.2.2:8080/dashboard', 'no loopback address: the one listened on')
  t.match(specific.warning, 'listening beyond this machine (192.0.2.2)')
  t.equal(announcement([bound('127.0.0.2')], machine, { https: false }).warning, undefined, 'all of 127.0.0.0/8 is this machine')
})
