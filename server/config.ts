import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'

/**
 * Every setting of the sandbox, in one TypeBox schema. Each can be given as a flag (`--port 8080`,
 * `--port=8080`) or an environment variable (`PORT=8080`); flags win. A bad value stops the start
 * with one message that names every bad key.
 */
interface Setting {
  flag: string
  env: string
  schema: TSchema
  description: string
}

function setting<S extends TSchema> (flag: string, env: string, schema: S, description: string): S & { setting: Setting } {
  return Object.assign(schema, { setting: { flag, env, schema, description } })
}

export const ConfigSchema = Type.Object({
  port: setting('port', 'PORT', Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }), 'TCP port to listen on'),
  host: setting('host', 'HOST', Type.String({ minLength: 1, default: '0.0.0.0' }), 'Interface to listen on'),
  data: setting('data', 'SANDBOX_DATA', Type.Optional(Type.String({ minLength: 1 })), 'Persist state to this JSON file and reload it on start (in memory when absent)'),
  seed: setting('seed', 'SANDBOX_SEED', Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), 'Seed of the random generator behind ids and random faults (random when absent, printed at boot)'),
  logLevel: setting('log-level', 'LOG_LEVEL', Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map(l => Type.Literal(l)), { default: 'info' }), 'pino log level'),
  settlementDelayMs: setting('settlement-delay-ms', 'SANDBOX_SETTLEMENT_DELAY_MS', Type.Integer({ minimum: 0, maximum: 86_400_000, default: 50 }), 'Sandbox time between creating a payment and its settlement'),
  clock: setting('clock', 'SANDBOX_CLOCK', Type.Union([Type.Literal('running'), Type.Literal('frozen')], { default: 'running' }), 'Start the clock running or frozen'),
  clockStart: setting('clock-start', 'SANDBOX_CLOCK_START', Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2})$' })), 'Initial sandbox time (ISO 8601); real time when absent'),
  adminToken: setting('admin-token', 'SANDBOX_ADMIN_TOKEN', Type.Optional(Type.String({ minLength: 8 })), 'When set, /__sandbox requires `Authorization: Bearer <token>` or `X-Sandbox-Admin-Token`'),
  jwtSecret: setting('jwt-secret', 'SANDBOX_JWT_SECRET', Type.Optional(Type.String({ minLength: 16 })), 'HMAC secret of access tokens (random per process when absent)'),
  tlsCert: setting('tls-cert', 'SANDBOX_TLS_CERT', Type.Optional(Type.String({ minLength: 1 })), 'Server certificate (PEM file); with --tls-key, serve HTTPS and request client certificates'),
  tlsKey: setting('tls-key', 'SANDBOX_TLS_KEY', Type.Optional(Type.String({ minLength: 1 })), 'Server private key (PEM file)'),
  fixtures: setting('fixtures', 'SANDBOX_FIXTURES', Type.Optional(Type.String({ minLength: 1 })), 'Folder with default.json and directory.json replacing the built-in fixtures'),
  webhookUrl: setting('webhook-url', 'SANDBOX_WEBHOOK_URL', Type.Optional(Type.String({ pattern: '^https?://' })), 'Register this URL for every event type of the default account at start'),
  webhookSecret: setting('webhook-secret', 'SANDBOX_WEBHOOK_SECRET', Type.String({ minLength: 1, default: 'pix-sandbox-webhook-secret' }), 'HMAC-SHA256 secret of the X-Sandbox-Signature header'),
  webhookTimeoutMs: setting('webhook-timeout-ms', 'SANDBOX_WEBHOOK_TIMEOUT_MS', Type.Integer({ minimum: 1, maximum: 600_000, default: 5000 }), 'Timeout of one delivery attempt'),
  webhookMaxAttempts: setting('webhook-max-attempts', 'SANDBOX_WEBHOOK_MAX_ATTEMPTS', Type.Integer({ minimum: 1, maximum: 20, default: 5 }), 'Attempts before a delivery is marked failed'),
  webhookBackoffMs: setting('webhook-backoff-ms', 'SANDBOX_WEBHOOK_BACKOFF_MS', Type.Integer({ minimum: 0, maximum: 3_600_000, default: 1000 }), 'First retry delay; doubles on each retry (sandbox time)'),
  publicWebhooks: setting('public-webhooks', 'SANDBOX_PUBLIC_WEBHOOKS', Type.Union([Type.Literal('disabled'), Type.Literal('enabled')], { default: 'disabled' }), 'disabled: POST/GET /api/webhooks answer as the real gateway does today; enabled: their intended behaviour'),
  selfWebhooks: setting('self-webhooks', 'SANDBOX_SELF_WEBHOOKS', Type.Union([Type.Literal('disabled'), Type.Literal('enabled')], { default: 'disabled' }), 'enabled: a webhook URL may point at the sandbox itself (its listening port on a loopback, any-address or own address, or a localhost name); disabled: such URLs are refused, since a receiver like /__sandbox/reset would act on the sandbox'),
  journalSize: setting('journal-size', 'SANDBOX_JOURNAL_SIZE', Type.Integer({ minimum: 0, maximum: 100_000, default: 500 }), 'Requests kept in the /__sandbox/requests journal'),
  deliveryLogSize: setting('delivery-log-size', 'SANDBOX_DELIVERY_LOG_SIZE', Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1000 }), 'Webhook deliveries kept per account'),
  maxPendingDeliveries: setting('max-pending-deliveries', 'SANDBOX_MAX_PENDING_DELIVERIES', Type.Integer({ minimum: 1, maximum: 1_000_000, default: 10_000 }), 'Webhook deliveries still pending per account; beyond it the oldest pending ones fail (PENDING_LIMIT), so a dead or hanging receiver cannot grow memory without bound'),
  medRateLimit: setting('med-rate-limit', 'SANDBOX_MED_RATE_LIMIT', Type.Integer({ minimum: 1, maximum: 100_000, default: 60 }), 'GET /api/med requests per account per minute before 429'),
})

export type Config = Static<typeof ConfigSchema>

export class ConfigError extends Error {
  constructor (readonly problems: string[]) {
    super(`invalid settings:\n${problems.map(p => `  - ${p}`).join('\n')}`)
  }
}

function settings (): Array<[keyof Config, Setting]> {
  return Object.entries(ConfigSchema.properties).map(([k, s]) => [k as keyof Config, (s as unknown as { setting: Setting }).setting])
}

/** Parses flags and environment into a valid Config, or throws ConfigError naming every bad key. */
export function loadConfig (env: Record<string, string | undefined>, argv: string[]): Config {
  const problems: string[] = []
  const raw: Record<string, unknown> = {}
  const byFlag = new Map(settings().map(([key, s]) => [s.flag, key]))
  for (const [key, s] of settings()) {
    const v = env[s.env]
    if (v !== undefined && v !== '') raw[key] = v
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (!arg.startsWith('--')) { problems.push(`unexpected argument "${arg}"`); continue }
    const eq = arg.indexOf('=')
    const flag = arg.slice(2, eq === -1 ? undefined : eq)
    const key = byFlag.get(flag)
    if (!key) { problems.push(`unknown flag --${flag}`); continue }
    let value: string | undefined = eq === -1 ? argv[i + 1] : arg.slice(eq + 1)
    if (eq === -1) {
      if (value === undefined || value.startsWith('--')) { problems.push(`--${flag} needs a value`); continue }
      i++
    }
    raw[key] = value
  }
  const converted = Value.Convert(ConfigSchema, Value.Default(ConfigSchema, { ...raw })) as Record<string, unknown>
  // Value.Convert truncates "1.5" and "1e3" to 1 and reads "true" as 1; an integer setting takes digits only.
  for (const [key] of settings()) {
    const given = raw[key]
    if ((ConfigSchema.properties[key] as { type?: string }).type === 'integer' && typeof given === 'string' && !/^\s*-?\d+\s*$/.test(given)) converted[key] = given
  }
  const bad = new Set<string>()
  for (const e of Value.Errors(ConfigSchema, converted)) {
    const key = e.path.split('/')[1] as keyof Config
    if (!key || bad.has(key)) continue
    bad.add(key)
    const s = (ConfigSchema.properties[key] as unknown as { setting: Setting }).setting
    problems.push(`${key} (--${s.flag} / ${s.env}): ${JSON.stringify(raw[key])} is invalid: ${e.message}`)
  }
  if (typeof converted.clockStart === 'string' && !bad.has('clockStart') && Number.isNaN(Date.parse(converted.clockStart))) {
    problems.push(`clockStart (--clock-start / SANDBOX_CLOCK_START): ${JSON.stringify(converted.clockStart)} is not a valid instant`)
  }
  if (Boolean(converted.tlsCert) !== Boolean(converted.tlsKey)) problems.push('tlsCert and tlsKey (--tls-cert / --tls-key): give both or neither')
  if (problems.length > 0) throw new ConfigError(problems)
  return converted as Config
}

/** The --help text: every setting with its flag, variable, default and meaning. */
export function helpText (): string {
  const lines = ['Usage: pix-sandbox [--flag value ...]', '', 'Every setting is a flag or an environment variable (flags win):', '']
  for (const [, s] of settings()) {
    const def = (s.schema as { default?: unknown }).default
    lines.push(`  --${s.flag.padEnd(22)} ${s.env.padEnd(30)} ${s.description}${def !== undefined ? ` (default: ${String(def)})` : ''}`)
  }
  lines.push('', '  --help                 print this text and exit')
  return lines.join('\n')
}

/** The README's settings table, generated from the schema. */
export function settingsMarkdown (): string {
  const rows = settings().map(([, s]) => {
    const def = (s.schema as { default?: unknown }).default
    return `| \`--${s.flag}\` | \`${s.env}\` | ${def === undefined ? '' : `\`${String(def)}\``} | ${s.description} |`
  })
  return ['| Flag | Environment variable | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n')
}

/** A complete config for tests and embedding: defaults plus overrides. */
export function defaultConfig (overrides: Partial<Config> = {}): Config {
  return { ...(Value.Default(ConfigSchema, {}) as Config), ...overrides }
}
