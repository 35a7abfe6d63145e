import t from 'tap'
import { ConfigError, ConfigSchema, defaultConfig, helpText, loadConfig } from '../../server/config.js'

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
  t.equal(c.host, '0.0.0.0')
  t.equal(c.logLevel, 'info')
  t.equal(c.settlementDelayMs, 50)
  t.equal(c.clock, 'running')
  t.equal(c.journalSize, 500)
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

t.test('helpText lists every flag, every variable and the defaults', async t => {
  const text = helpText()
  const settings = Object.values(ConfigSchema.properties).map(s => (s as unknown as { setting: { flag: string, env: string } }).setting)
  t.ok(settings.length >= 20)
  for (const s of settings) {
    t.match(text, `--${s.flag} `, `lists --${s.flag}`)
    t.match(text, s.env, `lists ${s.env}`)
  }
  t.match(text, '--help')
  t.match(text, '(default: 8080)')
})
