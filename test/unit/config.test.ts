import t from 'tap'
import { ConfigError, ConfigSchema, closestFlag, configFromOptions, defaultConfig, helpText, loadConfig, requestedLogLevel } from '../../server/config.js'
import { StartupError } from '../../server/errors/startup.js'

/** Settings from flags and environment (flags win), one error naming every bad key, and --help. */

function configError (fn: () => unknown): ConfigError {
  try {
    fn()
  } catch (err) {
    if (err instanceof ConfigError) return err
    throw err
  }
  throw new Error('expected a ConfigError')
}

t.test('defaults with no env and no flags', async t => {
  const c = loadConfig({}, [])
  t.equal(c.port, 8080)
  t.equal(c.host, '127.0.0.1', 'this machine only unless HOST says otherwise')
  t.equal(c.logLevel, 'info')
  t.equal(c.settlementDelayMs, 50)
  t.equal(c.clock, 'running')
  t.equal(c.journalSize, 1000, 'per account (issue 17)')
  t.equal(c.publicWebhooks, 'disabled')
  t.equal(c.data, undefined, 'memory store by default')
  t.equal(c.seed, undefined, 'random seed by default')
  t.equal(c.adminToken, undefined, 'control plane open by default')
  t.same(c, defaultConfig(), 'loadConfig and defaultConfig agree')
})

t.test('environment variables are read and converted', async t => {
  const c = loadConfig({ PORT: '9090', HOST: '127.0.0.1', SANDBOX_SEED: 'abc', SANDBOX_CLOCK: 'frozen', SANDBOX_SETTLEMENT_DELAY_MS: '0', SANDBOX_DATA: '/tmp/x.json', LOG_LEVEL: 'warn' }, [])
  t.equal(c.port, 9090)
  t.equal(c.host, '127.0.0.1')
  t.equal(c.seed, 'abc')
  t.equal(c.clock, 'frozen')
  t.equal(c.settlementDelayMs, 0)
  t.equal(c.data, '/tmp/x.json')
  t.equal(c.logLevel, 'warn')
})

t.test('an empty environment variable counts as unset', async t => {
  t.equal(loadConfig({ PORT: '' }, []).port, 8080)
})

t.test('flags win over env, in both --flag value and --flag=value forms', async t => {
  const env = { PORT: '9090', LOG_LEVEL: 'warn', SANDBOX_SEED: 'from-env' }
  const c = loadConfig(env, ['--port', '7070', '--log-level=debug', '--seed=from-flag'])
  t.equal(c.port, 7070)
  t.equal(c.logLevel, 'debug')
  t.equal(c.seed, 'from-flag')
  t.equal(loadConfig(env, []).port, 9090, 'env applies without the flag')
})

t.test('one ConfigError naming every bad key', async t => {
  const err = configError(() => loadConfig({ LOG_LEVEL: 'loud' }, ['--port=abc', '--settlement-delay-ms', '-5']))
  t.equal(err.problems.length, 3, 'three problems, one per key')
  for (const key of ['port', 'settlementDelayMs', 'logLevel']) t.match(err.message, key, `names ${key}`)
  t.match(err.message, '--port')
  t.match(err.message, '--settlement-delay-ms')
  t.match(err.message, 'LOG_LEVEL')
  t.match(err.message, '"abc"')
  t.match(err.message, '"loud"')
})

t.test('unknown flags, positional arguments and a flag without value are reported', async t => {
  const err = configError(() => loadConfig({}, ['--nope', 'stray', '--port']))
  t.same(err.problems, ['unknown flag --nope', 'unexpected argument "stray"', '--port needs a value'])
  const both = configError(() => loadConfig({}, ['--verbose', '--port', 'x']))
  t.equal(both.problems.length, 2, 'an unknown flag and a bad value are reported together')
})

t.test('a flag followed by another flag has no value', async t => {
  const err = configError(() => loadConfig({}, ['--seed', '--port', '1']))
  t.same(err.problems, ['--seed needs a value'])
})

t.test('ranges and enums are enforced', async t => {
  const bad: Array<[string, string[]]> = [
    ['port', ['--port', '70000']],
    ['port', ['--port', '-1']],
    ['clock', ['--clock', 'sideways']],
    ['clockStart', ['--clock-start', 'yesterday']],
    ['clockStart', ['--clock-start', '2026-13-45T99:99Z']],
    ['adminToken', ['--admin-token', 'short']],
    ['webhookUrl', ['--webhook-url', 'ftp://x']],
    ['journalSize', ['--journal-size', '100001']],
  ]
  for (const [key, argv] of bad) {
    const err = configError(() => loadConfig({}, argv))
    t.equal(err.problems.length, 1, argv.join(' '))
    t.match(err.problems[0], key, `${argv.join(' ')} names ${key}`)
  }
  t.equal(loadConfig({}, ['--clock-start', '2026-03-10T15:00:00Z']).clockStart, '2026-03-10T15:00:00Z')
  t.equal(loadConfig({}, ['--port', '0']).port, 0, 'port 0 picks a free port')
})

t.test('integer settings take digits only: no truncation of 1.5 or 1e3, no true as 1, no hex', async t => {
  for (const v of ['1.5', '1e3', 'true', '0x10', '12abc', '']) {
    const err = configError(() => loadConfig({}, [`--port=${v}`]))
    t.match(err.problems[0], 'port', `--port=${v} is refused`)
  }
  t.equal(loadConfig({ PORT: ' 8081 ' }, []).port, 8081, 'surrounding blanks are tolerated')
  t.match(configError(() => loadConfig({ SANDBOX_JOURNAL_SIZE: '2.7' }, [])).problems[0], 'journalSize')
})

t.test('TLS needs both the certificate and the key', async t => {
  const err = configError(() => loadConfig({ SANDBOX_TLS_CERT: '/tmp/c.pem' }, []))
  t.match(err.message, 'tlsKey')
  const c = loadConfig({}, ['--tls-cert', '/tmp/c.pem', '--tls-key', '/tmp/k.pem'])
  t.equal(c.tlsCert, '/tmp/c.pem')
  t.equal(c.tlsKey, '/tmp/k.pem')
})

t.test('whether X-SSL-Client-Cert counts: unset unless given, true or false by flag, variable or option', async t => {
  t.equal(loadConfig({}, []).trustClientCertHeader, undefined, 'unset: it counts over plain HTTP only (auth/clients.ts)')
  t.equal(loadConfig({}, ['--trust-client-cert-header', 'true']).trustClientCertHeader, true)
  t.equal(loadConfig({ SANDBOX_TRUST_CLIENT_CERT_HEADER: 'false' }, []).trustClientCertHeader, false)
  t.equal(configFromOptions({ trustClientCertHeader: true }).trustClientCertHeader, true, 'an option takes a boolean')
  t.match(configError(() => loadConfig({}, ['--trust-client-cert-header', 'maybe'])).problems[0], /trustClientCertHeader .*true or false/)
})

t.test('helpText lists every flag, every variable and the defaults', async t => {
  const text = helpText()
  const settings = Object.values(ConfigSchema.properties).map(s => (s as unknown as { setting: { flag: string, env: string } }).setting)
  t.ok(settings.length >= 20)
  for (const s of settings) {
    t.match(text, `--${s.flag} `, `lists --${s.flag}`)
    t.match(text, s.env, `lists ${s.env}`)
  }
  t.match(text, '--help')
  t.match(text, '--version')
  t.match(text, '(default: 8080)')
  t.match(text, '(default: 127.0.0.1)')
})

t.test('a bad setting is a StartupError of exit code 2 in one line that ends with where to look', async t => {
  const err = configError(() => loadConfig({ SANDBOX_CLOCK: 'sometimes' }, ['--port', 'abc']))
  t.ok(err instanceof StartupError)
  t.equal(err.exitCode, 2)
  t.equal(err.message, 'port (--port / PORT): "abc" is invalid: expected a whole number from 0 to 65535; clock (--clock / SANDBOX_CLOCK): "sometimes" is invalid: expected one of running, frozen (--help lists every setting)')
  t.notMatch(err.message, '\n')
})

t.test('an invalid value is reported with the values or the form allowed', async t => {
  const problem = (env: Record<string, string>, argv: string[] = []): string => configError(() => loadConfig(env, argv)).problems[0]
  t.equal(problem({ SANDBOX_CLOCK: 'sometimes' }), 'clock (--clock / SANDBOX_CLOCK): "sometimes" is invalid: expected one of running, frozen')
  t.equal(problem({ LOG_LEVEL: 'loud' }), 'logLevel (--log-level / LOG_LEVEL): "loud" is invalid: expected one of fatal, error, warn, info, debug, trace, silent')
  t.equal(problem({}, ['--webhook-client-cert', 'c.pem']), 'webhookClientCert and webhookClientKey (--webhook-client-cert / --webhook-client-key): give both or neither')
  t.equal(problem({ SANDBOX_WEBHOOK_MTLS_CHECK: 'on' }), 'webhookMtlsCheck (--webhook-mtls-check / SANDBOX_WEBHOOK_MTLS_CHECK): "on" is invalid: expected one of disabled, enabled')
  t.equal(problem({ SANDBOX_PUBLIC_WEBHOOKS: 'yes' }), 'publicWebhooks (--public-webhooks / SANDBOX_PUBLIC_WEBHOOKS): "yes" is invalid: expected one of disabled, enabled')
  t.equal(problem({}, ['--port', '70000']), 'port (--port / PORT): "70000" is invalid: expected a whole number from 0 to 65535')
  t.equal(problem({}, ['--webhook-max-attempts=1.5']), 'webhookMaxAttempts (--webhook-max-attempts / SANDBOX_WEBHOOK_MAX_ATTEMPTS): "1.5" is invalid: expected a whole number from 1 to 20')
  t.equal(problem({ SANDBOX_ADMIN_TOKEN: 'short' }), 'adminToken (--admin-token / SANDBOX_ADMIN_TOKEN): "short" is invalid: expected at least 8 characters')
  t.equal(problem({ SANDBOX_SEED: 'x'.repeat(65) }), `seed (--seed / SANDBOX_SEED): "${'x'.repeat(65)}" is invalid: expected 1 to 64 characters`)
  t.equal(problem({}, ['--host=']), 'host (--host / HOST): "" is invalid: expected at least 1 character')
  t.equal(problem({ SANDBOX_WEBHOOK_URL: 'ftp://x' }), 'webhookUrl (--webhook-url / SANDBOX_WEBHOOK_URL): "ftp://x" is invalid: expected an http:// or https:// URL')
  const instant = 'expected an ISO 8601 instant with its offset, such as 2026-03-10T12:00:00-03:00'
  t.equal(problem({ SANDBOX_CLOCK_START: 'yesterday' }), `clockStart (--clock-start / SANDBOX_CLOCK_START): "yesterday" is invalid: ${instant}`)
  t.equal(problem({ SANDBOX_CLOCK_START: '2026-13-45T99:99Z' }), `clockStart (--clock-start / SANDBOX_CLOCK_START): "2026-13-45T99:99Z" is invalid: ${instant}`, 'the right form but no such instant')
})

t.test('an unknown flag names the closest one', async t => {
  t.equal(closestFlag('prot'), 'port', 'two letters swapped')
  t.equal(closestFlag('pot'), 'port', 'a letter missing')
  t.equal(closestFlag('PORT'), 'port', 'the environment variable\'s case')
  t.equal(closestFlag('log_level'), 'log-level', 'underscores')
  t.equal(closestFlag('data-file'), 'data', 'a longer name')
  t.equal(closestFlag('webhook'), 'webhook-url', 'a shorter name')
  t.equal(closestFlag('verison'), 'version')
  t.equal(closestFlag('webhook-ulr'), 'webhook-url')
  t.equal(closestFlag('nope'), undefined, 'nothing close')
  t.equal(closestFlag('verbose'), undefined)
  t.same(configError(() => loadConfig({}, ['--prot', '8080'])).problems, ['unknown flag --prot: did you mean --port?'], 'the word after a mistyped setting is its value')
  t.same(configError(() => loadConfig({}, ['--prot=8080', 'stray'])).problems, ['unknown flag --prot: did you mean --port?', 'unexpected argument "stray"'])
  t.same(configError(() => loadConfig({}, ['--verison', 'stray'])).problems, ['unknown flag --verison: did you mean --version?', 'unexpected argument "stray"'], '--version takes no value')
})

t.test('the log level asked for is known even when the settings are not valid', async t => {
  t.equal(requestedLogLevel({}, []), undefined)
  t.equal(requestedLogLevel({ LOG_LEVEL: 'debug' }, ['--port', 'abc']), 'debug')
  t.equal(requestedLogLevel({ LOG_LEVEL: 'debug' }, ['--log-level', 'warn']), 'warn', 'the flag wins')
  t.equal(requestedLogLevel({}, ['--log-level=trace', '--nope']), 'trace')
})

t.test('API Pix\'s base path: /v2 unless set; a path of segments without a trailing slash; the public URL: scheme and a short host, no path', async t => {
  t.equal(loadConfig({}, []).apiPixBasePath, '/v2')
  for (const base of ['/v2', '/pix/v2', '/api/v2', '/v2.1']) t.equal(loadConfig({ SANDBOX_API_PIX_BASE_PATH: base }, []).apiPixBasePath, base)
  for (const base of ['/v2/', 'v2', '/', '/a/../b', '/..', '/a b', '/v2?x']) {
    t.match(configError(() => loadConfig({}, ['--api-pix-base-path', base])).message, 'apiPixBasePath (--api-pix-base-path / SANDBOX_API_PIX_BASE_PATH)', base)
  }
  t.equal(loadConfig({}, ['--public-url', 'https://pix.example.com']).publicUrl, 'https://pix.example.com')
  t.equal(loadConfig({ SANDBOX_PUBLIC_URL: 'http://[::1]:8443' }, []).publicUrl, 'http://[::1]:8443')
  // The location (host, /qr/v2/cobv/ for a due charge, the longest path (a recurrence's /qr/v2/rec/ is shorter), and a 32-character token) must fit API Pix's 77 characters.
  t.equal(loadConfig({}, ['--public-url', `https://${'a'.repeat(33)}`]).publicUrl?.length, 41)
  for (const url of ['https://pix.example.com/', 'https://pix.example.com/base', 'ftp://pix.example.com', `https://${'a'.repeat(34)}`, 'pix.example.com']) {
    t.match(configError(() => loadConfig({}, ['--public-url', url])).message, 'publicUrl (--public-url / SANDBOX_PUBLIC_URL)', url)
  }
})

t.test('the alphanumeric CNPJ on the gateway\'s families: disabled unless set, by flag or variable', async t => {
  t.equal(loadConfig({}, []).alphanumericCnpj, 'disabled', 'digits only, as docs/gateway.md describes')
  t.equal(loadConfig({ SANDBOX_ALPHANUMERIC_CNPJ: 'enabled' }, []).alphanumericCnpj, 'enabled')
  t.equal(loadConfig({ SANDBOX_ALPHANUMERIC_CNPJ: 'enabled' }, ['--alphanumeric-cnpj', 'disabled']).alphanumericCnpj, 'disabled', 'the flag wins')
  t.equal(configError(() => loadConfig({}, ['--alphanumeric-cnpj', 'yes'])).problems[0], 'alphanumericCnpj (--alphanumeric-cnpj / SANDBOX_ALPHANUMERIC_CNPJ): "yes" is invalid: expected one of disabled, enabled')
})
