import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateClientCertificate } from '../../server/auth/certificates.js'
import { loadConfig } from '../../server/config.js'
import { commandLines, healthUrl, healthy, serverArgs } from '../../server/healthcheck.js'
import { startSandbox } from '../../server/index.js'

/**
 * The image's HEALTHCHECK (server/healthcheck.ts) follows the port and protocol the server really
 * uses: its flags from its command line, its settings from the environment, read by loadConfig.
 */

const imageEnv = { NODE_ENV: 'production', PORT: '8080', HOST: '0.0.0.0' } // the Dockerfile's ENV

t.test('the server\'s flags come from the command line that runs main.js, under an init or not', async t => {
  const check = ['node', 'dist/server/healthcheck.js']
  t.same(serverArgs([['node', 'dist/server/main.js', '--port', '9000'], check]), ['--port', '9000'])
  t.same(serverArgs([['/sbin/docker-init', '--', 'node', 'dist/server/main.js', '--seed', 'x'], ['node', 'dist/server/main.js', '--seed', 'x'], check]), ['--seed', 'x'])
  t.same(serverArgs([['node', '/app/dist/server/main.js'], check]), [], 'no flags: the defaults and the environment')
  t.same(serverArgs([['node', '--import', 'tsx', 'server/main.ts', '--port=7'], check]), ['--port=7'], 'run from the sources too')
  t.equal(serverArgs([['sh'], check, []]), undefined, 'no server found')
  t.equal(serverArgs([['node', 'dist/server/domain.js', '--port', '1']]), undefined)
})

t.test('the command lines of this machine\'s processes are read from /proc, this one\'s among them', async t => {
  const lines = commandLines()
  t.ok(lines.length > 1)
  t.ok(lines.some(argv => argv[0] === process.argv0 || argv.includes(process.argv[1])), 'this test process is found')
})

t.test('the URL checked follows --port, PORT, --host and TLS', async t => {
  const url = (argv: string[], env: Record<string, string> = imageEnv) => healthUrl(loadConfig(env, argv))
  t.equal(url([]), 'http://127.0.0.1:8080/__sandbox/health', 'the image as built: every interface, checked on loopback')
  t.equal(url(['--port', '9000']), 'http://127.0.0.1:9000/__sandbox/health', 'a flag after the image name')
  t.equal(url([], { ...imageEnv, PORT: '9100' }), 'http://127.0.0.1:9100/__sandbox/health', 'docker run -e PORT=9100')
  t.equal(url(['--host', '::']), 'http://127.0.0.1:8080/__sandbox/health')
  t.equal(url(['--host', '::1']), 'http://[::1]:8080/__sandbox/health')
  t.equal(url(['--tls-cert', '/certs/c.pem', '--tls-key', '/certs/k.pem']), 'https://127.0.0.1:8080/__sandbox/health', 'TLS is checked over https')
})

t.test('healthy: 200 from a running sandbox, over http or https; anything else is unhealthy', async t => {
  const plain = await startSandbox({ port: 0 })
  t.teardown(() => plain.close())
  t.equal(await healthy(`${plain.url}/__sandbox/health`, 2000), true)

  const dir = mkdtempSync(join(tmpdir(), 'pix-health-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const cert = await generateClientCertificate('localhost', 3, Date.now())
  writeFileSync(join(dir, 'c.pem'), cert.certificate)
  writeFileSync(join(dir, 'k.pem'), cert.privateKey)
  const tls = await startSandbox({ port: 0, tlsCert: join(dir, 'c.pem'), tlsKey: join(dir, 'k.pem') })
  t.teardown(() => tls.close())
  t.equal(await healthy(healthUrl({ ...tls.config, port: tls.port }), 2000), true, 'https on the port the server really uses')
  t.equal(await healthy(healthUrl({ ...tls.config, port: tls.port, tlsCert: undefined }), 2000), false, 'plain http to a TLS port is not healthy')

  const answers = createServer((req, res) => {
    if (req.url === '/hang') return
    res.writeHead(503).end('{"status":"starting"}')
  })
  await new Promise<void>(resolve => answers.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { answers.closeAllConnections(); answers.close() })
  const port = (answers.address() as { port: number }).port
  t.equal(await healthy(`http://127.0.0.1:${port}/__sandbox/health`, 2000), false, 'still starting (503)')
  t.equal(await healthy(`http://127.0.0.1:${port}/hang`, 100), false, 'no answer within the timeout')
  await plain.close()
  t.equal(await healthy(`${plain.url}/__sandbox/health`, 2000), false, 'nothing listening')
})
