// OptionalKind is imported only so that the emitted declaration of ConfigSchema can name it (TS4023).
import { Type, type OptionalKind, type Static, type TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { parseArgs } from 'node:util'
import { parseInstant, SANDBOX_TIME_RANGE, withinSandboxTime } from './domain/instant.js'
import { closest, distance } from './domain/names.js'
import { LOCATION_HOST_MAX_LENGTH as LOCATION_HOST_MAX } from './domain/payload-locations.js'
import { StartupError } from './errors/startup.js'

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
  /** What a valid value looks like, for the error message, where the schema alone cannot say it in words. */
  expected?: string
}

function setting<S extends TSchema> (flag: string, env: string, schema: S, description: string, expected?: string): S & { setting: Setting } {
  return Object.assign(schema, { setting: { flag, env, schema, description, expected } })
}

/** Segments of unreserved characters (RFC 3986), none of them `.` or `..`, no trailing slash. */
const API_PIX_BASE_PATH = '^(/(?!\\.\\.?(/|$))[A-Za-z0-9._~-]+)+$'

/** Its host[:port] becomes the host of payload locations, which API Pix caps at 77 characters with their path. */
const PUBLIC_URL = `^https?://(?=[^/]{1,${LOCATION_HOST_MAX}}$)([A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*|\\[[0-9A-Fa-f:.]+\\])(:[0-9]{1,5})?$`

export const ConfigSchema = Type.Object({
  port: setting('port', 'PORT', Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }), 'TCP port to listen on'),
  host: setting('host', 'HOST', Type.String({ minLength: 1, default: '127.0.0.1' }), 'Address to listen on: 127.0.0.1 is this machine only; 0.0.0.0 (or ::) every interface, so also the network'),
  data: setting('data', 'SANDBOX_DATA', Type.Optional(Type.String({ minLength: 1 })), 'Persist state to this JSON file and reload it on start (in memory when absent)'),
  seed: setting('seed', 'SANDBOX_SEED', Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), 'Seed of the random generator behind ids and random faults (random when absent, printed at boot)'),
  logFormat: setting('log-format', 'LOG_FORMAT', Type.Optional(Type.Union([Type.Literal('pretty'), Type.Literal('json')])), 'Console lines: pretty (one readable line per request; the default on a terminal) or json (JSON lines; the default otherwise and in the image)'),
  logLevel: setting('log-level', 'LOG_LEVEL', Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map(l => Type.Literal(l)), { default: 'info' }), 'pino log level'),
  settlementDelayMs: setting('settlement-delay-ms', 'SANDBOX_SETTLEMENT_DELAY_MS', Type.Integer({ minimum: 0, maximum: 86_400_000, default: 50 }), 'Sandbox time between creating a payment and its settlement'),
  clock: setting('clock', 'SANDBOX_CLOCK', Type.Union([Type.Literal('running'), Type.Literal('frozen')], { default: 'running' }), 'Start the clock running or frozen'),
  clockStart: setting('clock-start', 'SANDBOX_CLOCK_START', Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2})$' })), 'Initial sandbox time (ISO 8601); real time when absent', 'an ISO 8601 instant with its offset, such as 2026-03-10T12:00:00-03:00'),
  adminToken: setting('admin-token', 'SANDBOX_ADMIN_TOKEN', Type.Optional(Type.String({ minLength: 8 })), 'When set, /__sandbox requires `Authorization: Bearer <token>` or `X-Sandbox-Admin-Token`'),
  jwtSecret: setting('jwt-secret', 'SANDBOX_JWT_SECRET', Type.Optional(Type.String({ minLength: 16 })), 'HMAC secret of access tokens (random per process when absent)'),
  tlsCert: setting('tls-cert', 'SANDBOX_TLS_CERT', Type.Optional(Type.String({ minLength: 1 })), 'Server certificate (PEM file); with --tls-key, serve HTTPS and request client certificates'),
  tlsKey: setting('tls-key', 'SANDBOX_TLS_KEY', Type.Optional(Type.String({ minLength: 1 })), 'Server private key (PEM file)'),
  trustClientCertHeader: setting('trust-client-cert-header', 'SANDBOX_TRUST_CLIENT_CERT_HEADER', Type.Optional(Type.Boolean()), 'true: X-SSL-Client-Cert is the client certificate of the tokens, as a TLS terminator in front of the sandbox sets it; false: only the certificate of a TLS handshake counts. Unset: the header counts over plain HTTP, and not when the sandbox serves HTTPS (--tls-cert), where anyone could send a copy of another account\'s public certificate in it', 'true or false'),
  fixtures: setting('fixtures', 'SANDBOX_FIXTURES', Type.Optional(Type.String({ minLength: 1 })), 'Folder with default.json and directory.json replacing the built-in fixtures'),
  webhookUrl: setting('webhook-url', 'SANDBOX_WEBHOOK_URL', Type.Optional(Type.String({ pattern: '^https?://' })), 'Register this URL for every event type of the default account at start', 'an http:// or https:// URL'),
  webhookSecret: setting('webhook-secret', 'SANDBOX_WEBHOOK_SECRET', Type.String({ minLength: 1, default: 'pix-sandbox-webhook-secret' }), 'HMAC-SHA256 secret of the X-Sandbox-Signature header'),
  webhookTimeoutMs: setting('webhook-timeout-ms', 'SANDBOX_WEBHOOK_TIMEOUT_MS', Type.Integer({ minimum: 1, maximum: 600_000, default: 5000 }), 'Timeout of one delivery attempt'),
  webhookMaxAttempts: setting('webhook-max-attempts', 'SANDBOX_WEBHOOK_MAX_ATTEMPTS', Type.Integer({ minimum: 1, maximum: 20, default: 5 }), 'Attempts before a delivery is marked failed'),
  webhookBackoffMs: setting('webhook-backoff-ms', 'SANDBOX_WEBHOOK_BACKOFF_MS', Type.Integer({ minimum: 0, maximum: 3_600_000, default: 1000 }), 'First retry delay; doubles on each retry (sandbox time)'),
  webhookClientCert: setting('webhook-client-cert', 'SANDBOX_WEBHOOK_CLIENT_CERT', Type.Optional(Type.String({ minLength: 1 })), 'Client certificate (PEM file: the certificate, then the CA certificates that issued it) the sandbox presents to https receivers of API Pix callbacks, with --webhook-client-key; absent, the one shipped with the sandbox (fixtures/certs/webhook-client.crt.pem, its CA fixtures/certs/webhook-ca.crt.pem). GET /__sandbox/webhooks/ca.pem serves the CA'),
  webhookClientKey: setting('webhook-client-key', 'SANDBOX_WEBHOOK_CLIENT_KEY', Type.Optional(Type.String({ minLength: 1 })), 'Private key (PEM file) of --webhook-client-cert'),
  webhookReceiverCa: setting('webhook-receiver-ca', 'SANDBOX_WEBHOOK_RECEIVER_CA', Type.Optional(Type.String({ minLength: 1 })), 'CA certificates (PEM file) an https receiver\'s server certificate may chain to, besides the ones Node trusts (its bundled roots and NODE_EXTRA_CA_CERTS)'),
  webhookMtlsCheck: setting('webhook-mtls-check', 'SANDBOX_WEBHOOK_MTLS_CHECK', Type.Union([Type.Literal('disabled'), Type.Literal('enabled')], { default: 'enabled' }), 'enabled: configuring an API Pix webhook (PUT /webhook/{chave}, /webhookrec, /webhookcobr) with an https URL checks its receiver\'s mutual TLS as Efí does (a request without the client certificate must be refused, one with it accepted; x-skip-mtls-checking: true skips the first), unless the account\'s webhookMtlsCheck is false; a plain http URL is accepted unchecked. disabled: any http(s) URL is accepted as it is, for every account'),
  publicWebhooks: setting('public-webhooks', 'SANDBOX_PUBLIC_WEBHOOKS', Type.Union([Type.Literal('disabled'), Type.Literal('enabled')], { default: 'disabled' }), 'disabled: POST/GET /api/webhooks answer as the real gateway does today; enabled: their intended behaviour'),
  alphanumericCnpj: setting('alphanumeric-cnpj', 'SANDBOX_ALPHANUMERIC_CNPJ', Type.Union([Type.Literal('disabled'), Type.Literal('enabled')], { default: 'disabled' }), 'enabled: the gateway\'s families accept the 2026 alphanumeric CNPJ in a DOCUMENT key, details.document, payer.document, the cash-out-qrcode document and creditorDocument; disabled: digits only there, as docs/gateway.md describes (API Pix takes both forms either way)'),
  selfWebhooks: setting('self-webhooks', 'SANDBOX_SELF_WEBHOOKS', Type.Union([Type.Literal('disabled'), Type.Literal('enabled')], { default: 'disabled' }), 'enabled: a webhook URL may point at the sandbox itself (its listening port on a loopback, any-address or own address, a localhost name, or a name that resolves to one of those); disabled: such URLs are refused, and never connected to, since a receiver like /__sandbox/reset would act on the sandbox'),
  journalSize: setting('journal-size', 'SANDBOX_JOURNAL_SIZE', Type.Integer({ minimum: 0, maximum: 100_000, default: 1000 }), 'Requests kept per account in the /__sandbox/requests journal (the oldest go first; 0 keeps none)'),
  journalBodies: setting('journal-bodies', 'SANDBOX_JOURNAL_BODIES', Type.Boolean({ default: true }), 'Keep request and response bodies in the /__sandbox/requests journal (false keeps every other field)', 'true or false'),
  deliveryLogSize: setting('delivery-log-size', 'SANDBOX_DELIVERY_LOG_SIZE', Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1000 }), 'Webhook deliveries kept per account'),
  maxPendingDeliveries: setting('max-pending-deliveries', 'SANDBOX_MAX_PENDING_DELIVERIES', Type.Integer({ minimum: 1, maximum: 1_000_000, default: 10_000 }), 'Webhook deliveries still pending per account for receivers whose latest attempt failed; beyond it the oldest of them fail (PENDING_LIMIT), so a dead or hanging receiver cannot grow memory without bound (a receiver that answers is owed every delivery)'),
  medRateLimit: setting('med-rate-limit', 'SANDBOX_MED_RATE_LIMIT', Type.Integer({ minimum: 1, maximum: 100_000, default: 60 }), 'GET /api/med requests per account per minute before 429'),
  apiPixBasePath: setting('api-pix-base-path', 'SANDBOX_API_PIX_BASE_PATH', Type.String({ pattern: API_PIX_BASE_PATH, default: '/v2' }), 'Base path of BACEN\'s API Pix (docs/api-pix.md): /v2, /pix/v2, /api/v2, ... as PSPs mount it; no gateway route may lie under it', 'a path of one or more segments without a trailing slash, such as /v2 or /pix/v2'),
  publicUrl: setting('public-url', 'SANDBOX_PUBLIC_URL', Type.Optional(Type.String({ pattern: PUBLIC_URL })), 'Where payers reach the sandbox (scheme://host[:port], no path): the host of API Pix payload locations and of their signing key; the Host of the request that creates a location when absent', `an http:// or https:// URL without a path whose host[:port] has at most ${LOCATION_HOST_MAX} characters, such as https://pix.example.com`),
  stopGraceMs: setting('stop-grace-ms', 'SANDBOX_STOP_GRACE_MS', Type.Integer({ minimum: 0, maximum: 600_000, default: 3000 }), 'When the sandbox stops, how long a request still arriving (headers or body half sent) may take to finish arriving and be answered; then its connection is cut'),
  journalCompactBytes: setting('journal-compact-bytes', 'SANDBOX_JOURNAL_COMPACT_BYTES', Type.Integer({ minimum: 1, maximum: 2 ** 40, default: 32 * 2 ** 20 }), 'With --data, fold the journal into the data file once it is larger than this and than the file'),
})

export type Config = Static<typeof ConfigSchema>

/**
 * Bad flags or settings: every problem in one line (the process prints it as `pix-sandbox: <message>`
 * and exits 2), each naming the setting, what was given and what is allowed.
 */
export class ConfigError extends StartupError {
  constructor (readonly problems: string[]) {
    super(`${problems.join('; ')} (--help lists every setting)`, 2)
    this.name = 'ConfigError'
  }
}

function settings (): Array<[keyof Config, Setting]> {
  return Object.entries(ConfigSchema.properties).map(([k, s]) => [k as keyof Config, (s as unknown as { setting: Setting }).setting])
}

/** The flags main.ts answers before reading settings. */
const COMMANDS = ['help', 'version']

/** The flag a mistyped one most likely meant (`--prot`, `--PORT`, `--log_level`, `--data-file`), if any is close. */
export function closestFlag (given: string): string | undefined {
  const typed = given.toLowerCase().replace(/_/g, '-')
  const known = [...settings().map(([, s]) => s.flag), ...COMMANDS]
  return closest(typed, known, (typed, flag) => typed === flag ? 0 : typed.startsWith(`${flag}-`) || flag.startsWith(`${typed}-`) ? 1 : distance(typed, flag))
}

/** What a valid value of a setting looks like, in words: the allowed values, the range, the form. */
function expectation (s: Setting): string {
  if (s.expected) return s.expected
  const schema = s.schema as { anyOf?: Array<{ const?: unknown }>, type?: string, minimum?: number, maximum?: number, minLength?: number, maxLength?: number }
  if (schema.anyOf) return `one of ${schema.anyOf.map(v => String(v.const)).join(', ')}`
  if (schema.type === 'integer') return `a whole number from ${schema.minimum} to ${schema.maximum}`
  if (schema.maxLength !== undefined) return `${schema.minLength ?? 0} to ${schema.maxLength} characters`
  return `at least ${schema.minLength ?? 1} character${schema.minLength === 1 || schema.minLength === undefined ? '' : 's'}`
}

function invalidSetting (key: keyof Config, given: unknown): string {
  const s = (ConfigSchema.properties[key] as unknown as { setting: Setting }).setting
  return `${key} (--${s.flag} / ${s.env}): ${JSON.stringify(given)} is invalid: expected ${expectation(s)}`
}

/** The flags of the settings as node:util's parseArgs reads them: each takes a value. */
function flagOptions (): Record<string, { type: 'string' }> {
  return Object.fromEntries(settings().map(([, s]) => [s.flag, { type: 'string' as const }]))
}

interface Flags {
  /** The value of each setting given as a flag (`--port 8080`, `--port=8080`); the last one given wins. */
  given: Partial<Record<keyof Config, string>>
  problems: string[]
}

/**
 * The settings given as flags, read by node:util's parseArgs (as the command line reads its options), and a
 * problem for every word that is none: a stray argument, an unknown flag (with the setting it most likely
 * meant), a flag without its value. A flag is never taken for a value: `--seed --port 1` is a seed without
 * its value and port 1.
 */
function readFlags (argv: readonly string[], flags: Flags = { given: {}, problems: [] }): Flags {
  const byFlag = new Map(settings().map(([key, s]) => [s.flag, key]))
  const { tokens } = parseArgs({ args: [...argv], options: flagOptions(), strict: false, allowPositionals: true, tokens: true })
  let skipped = -1
  for (const token of tokens) {
    if (token.index === skipped) continue
    if (token.kind === 'positional') {
      flags.problems.push(`unexpected argument "${token.value}"`)
      continue
    }
    // `--` is no setting either; what follows it is read as flags all the same.
    if (token.kind === 'option-terminator') {
      flags.problems.push('unknown flag --')
      return readFlags(argv.slice(token.index + 1), flags)
    }
    const arg = argv[token.index]
    if (!arg.startsWith('--')) {
      // `-p` or `-abc` (one token per letter): one stray argument.
      flags.problems.push(`unexpected argument "${arg}"`)
      skipped = token.index
      continue
    }
    const key = byFlag.get(token.name)
    if (!key) {
      const eq = arg.indexOf('=')
      const flag = arg.slice(2, eq === -1 ? undefined : eq)
      const meant = closestFlag(flag)
      flags.problems.push(meant ? `unknown flag --${flag}: did you mean --${meant}?` : `unknown flag --${flag}`)
      // `--prot 8080`: the word after a mistyped setting is its value, not a stray argument.
      const next = argv[token.index + 1]
      if (meant && byFlag.has(meant) && eq === -1 && next !== undefined && !next.startsWith('--')) skipped = token.index + 1
      continue
    }
    if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--'))) {
      flags.problems.push(`--${token.name} needs a value`)
      // parseArgs took the next flag for this one's value: read on from that flag.
      if (token.value !== undefined) return readFlags(argv.slice(token.index + 1), flags)
      continue
    }
    flags.given[key] = token.value
  }
  return flags
}

/** Parses flags and environment into a valid Config, or throws ConfigError naming every bad key. */
export function loadConfig (env: Record<string, string | undefined>, argv: string[]): Config {
  const raw: Record<string, unknown> = {}
  for (const [key, s] of settings()) {
    const v = env[s.env]
    if (v !== undefined && v !== '') raw[key] = v
  }
  const { given, problems } = readFlags(argv)
  Object.assign(raw, given)
  const converted = Value.Convert(ConfigSchema, Value.Default(ConfigSchema, { ...raw })) as Record<string, unknown>
  // Value.Convert truncates "1.5" and "1e3" to 1 and reads "true" as 1; an integer setting takes digits only.
  for (const [key] of settings()) {
    const given = raw[key]
    if ((ConfigSchema.properties[key] as { type?: string }).type === 'integer' && typeof given === 'string' && !/^\s*-?\d+\s*$/.test(given)) converted[key] = given
  }
  const bad = new Set<string>()
  const invalid = (key: keyof Config): string => invalidSetting(key, raw[key])
  for (const e of Value.Errors(ConfigSchema, converted)) {
    const key = e.path.split('/')[1] as keyof Config
    if (!key || bad.has(key)) continue
    bad.add(key)
    problems.push(invalid(key))
  }
  if (typeof converted.clockStart === 'string' && !bad.has('clockStart')) {
    // Read strictly (23:59:60 or February 30th is no instant), and within sandbox time.
    const start = parseInstant(converted.clockStart)
    if (start === null) problems.push(invalid('clockStart'))
    else if (!withinSandboxTime(start)) problems.push(`clockStart (--clock-start / SANDBOX_CLOCK_START): ${JSON.stringify(converted.clockStart)} is outside sandbox time (${SANDBOX_TIME_RANGE})`)
  }
  if (Boolean(converted.tlsCert) !== Boolean(converted.tlsKey)) problems.push('tlsCert and tlsKey (--tls-cert / --tls-key): give both or neither')
  if (Boolean(converted.webhookClientCert) !== Boolean(converted.webhookClientKey)) problems.push('webhookClientCert and webhookClientKey (--webhook-client-cert / --webhook-client-key): give both or neither')
  if (problems.length > 0) throw new ConfigError(problems)
  return converted as Config
}

/**
 * The log level asked for, read leniently (flags win) so that a start that fails before the settings
 * are valid still knows whether to print stack traces.
 */
export function requestedLogLevel (env: Record<string, string | undefined>, argv: string[]): string | undefined {
  return readFlags(argv).given.logLevel ?? env.LOG_LEVEL
}

/** The --help text: every setting with its flag, variable, default and meaning. */
export function helpText (): string {
  const lines = ['Usage: pix-sandbox [serve] [--flag value ...]', '       pix-sandbox help   lists the commands that act on a running sandbox (account, pay, clock, tail, ...)', '', 'Every setting is a flag or an environment variable (flags win):', '']
  for (const [, s] of settings()) {
    const def = (s.schema as { default?: unknown }).default
    lines.push(`  --${s.flag.padEnd(22)} ${s.env.padEnd(30)} ${s.description}${def !== undefined ? ` (default: ${String(def)})` : ''}`)
  }
  lines.push('', '  --help                 print this text and exit', '  --version              print the version and exit')
  return lines.join('\n')
}

/** The settings table of docs/configuration.md, generated from the schema. */
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

/**
 * The settings of an embedded sandbox (startSandbox) given as options, keyed like Config: checked
 * exactly as the same flags would be (the messages name the option and its flag), with no
 * environment read. A key that is no setting is refused, with the closest one when there is one.
 */
export function configFromOptions (options: Partial<Record<keyof Config, unknown>>): Config {
  const byKey = new Map(settings())
  const byFlag = new Map(settings().map(([key, s]) => [s.flag, key]))
  const problems: string[] = []
  const argv: string[] = []
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue
    const s = byKey.get(key as keyof Config)
    if (!s) {
      const meant = byFlag.get(closestFlag(key.replace(/[A-Z]/g, c => `-${c.toLowerCase()}`)) ?? '')
      problems.push(meant ? `unknown option ${key}: did you mean ${meant}?` : `unknown option ${key}`)
      continue
    }
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') argv.push(`--${s.flag}=${value}`)
    else problems.push(invalidSetting(key as keyof Config, value))
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return loadConfig({}, argv)
}
