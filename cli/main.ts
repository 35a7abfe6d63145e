import { parseArgs } from 'node:util'
import { createClient, PixApiError } from '../client/index.js'
import { EXIT, meant, UsageError, type Command, type Context, type Io, type Options } from './command.js'
import { commands } from './commands/index.js'

/**
 * `pix-sandbox <command>`: the command line of a running sandbox (Stripe CLI's `trigger` and
 * `logs tail`). It only talks HTTP to --url through the typed client: serving is `pix-sandbox serve`,
 * which never loads this module (bin/pix-sandbox.js picks one or the other).
 */

export const DEFAULT_URL = 'http://127.0.0.1:8080'

const GLOBAL: Options = {
  url: { type: 'string' },
  'admin-token': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
}

const GLOBAL_HELP = [
  'Options of every command:',
  `  --url URL             the sandbox (default: SANDBOX_URL or ${DEFAULT_URL})`,
  '  --admin-token TOKEN   its SANDBOX_ADMIN_TOKEN (default: the SANDBOX_ADMIN_TOKEN variable)',
  '  --json                print JSON (one object per line for tail) instead of text',
  '  --help, -h            print the help of the command',
  '',
  'Exit codes: 0 done, 1 the sandbox refused, 2 usage error, 3 the sandbox cannot be reached,',
  '4 the integration report has a failed check (report).',
]

function usageOf (command: Command): string[] {
  return command.usage.map((u, i) => `${i === 0 ? 'Usage:' : '      '} pix-sandbox ${u} [--url URL] [--json]`)
}

export function helpText (command?: Command): string {
  if (command) return [...usageOf(command), '', command.summary, '', ...command.details, ...(command.details.length ? [''] : []), ...GLOBAL_HELP].join('\n')
  const width = Math.max(...commands.map(c => c.name.length))
  return [
    'Usage: pix-sandbox [serve] [--flag value ...]   serve a sandbox (pix-sandbox serve --help lists the flags)',
    '       pix-sandbox <command> [options]          act on a running sandbox',
    '',
    'Commands:',
    ...commands.map(c => `  ${c.name.padEnd(width)}  ${c.summary}`),
    `  ${'help'.padEnd(width)}  this text, or \`help <command>\` for one command`,
    '',
    ...GLOBAL_HELP,
  ].join('\n')
}

/**
 * The command line with the options of every command that came before the command's name put after it:
 * `pix-sandbox --json clock` is `pix-sandbox clock --json`, as bin/pix-sandbox.js routes it here.
 */
function commandFirst (argv: string[]): [string | undefined, string[]] {
  let at = 0
  while (at < argv.length && /^--(json|url|admin-token)(=|$)/.test(argv[at])) at += argv[at] === '--url' || argv[at] === '--admin-token' ? 2 : 1
  return [argv[at], [...argv.slice(at + 1), ...argv.slice(0, at)]]
}

/** Runs one command line (argv without `node` and the script) and returns the exit code. */
export async function run (argv: string[], io: Io): Promise<number> {
  const [name, rest] = commandFirst(argv)
  let command: Command | undefined
  let url = io.env.SANDBOX_URL || DEFAULT_URL
  try {
    if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
      const topic = name === 'help' ? rest[0] : undefined
      command = topic === undefined ? undefined : commands.find(c => c.name === topic)
      if (topic !== undefined && !command) throw unknownCommand(topic)
      io.stdout(helpText(command) + '\n')
      return EXIT.OK
    }
    command = commands.find(c => c.name === name)
    if (!command) throw unknownCommand(name)
    let parsed: { values: Record<string, string | boolean | undefined>, positionals: string[] }
    try {
      parsed = parseArgs({ args: rest, options: { ...GLOBAL, ...command.options }, allowPositionals: true, strict: true }) as typeof parsed
    } catch (err) {
      const message = (err as Error).message.replace(/\. To specify a positional argument starting with a '-'.*$/s, '')
      const option = /^Unknown option '(--[^']+)'$/.exec(message)?.[1]
      throw new UsageError(option === undefined ? message : `${message}${meant(option, Object.keys({ ...GLOBAL, ...command.options }).map(o => `--${o}`))}`, command)
    }
    const { values, positionals } = parsed
    if (values.help) {
      io.stdout(helpText(command) + '\n')
      return EXIT.OK
    }
    if (typeof values.url === 'string') url = values.url
    if (!/^https?:\/\/[^/]/.test(url)) throw new UsageError(`--url needs an http:// or https:// address, not "${url}"`, command)
    const json = values.json === true
    const controller = new AbortController()
    io.signal?.addEventListener('abort', () => controller.abort(), { once: true })
    const ctx: Context = {
      sandbox: createClient({
        baseUrl: url,
        adminToken: typeof values['admin-token'] === 'string' ? values['admin-token'] : io.env.SANDBOX_ADMIN_TOKEN || undefined,
        // Marks the CLI's requests as the dashboard's are: its reads (tail's polling) stay out of the journal.
        headers: { 'x-sandbox-client': 'cli' },
        fetch: io.fetch,
      }),
      url,
      json,
      io,
      signal: controller.signal,
      print: (value, human) => io.stdout((json ? JSON.stringify(value) : human().join('\n')) + '\n'),
    }
    return (await command.run(ctx, positionals, values)) ?? EXIT.OK
  } catch (err) {
    return failed(err, argv.includes('--json'), url, io)
  }
}

/** One line per near miss a refusal lists (a wait that timed out: the closest deliveries), with what differed. */
function nearMissLines (err: PixApiError): string[] {
  const misses = (err.body as { details?: { nearMisses?: unknown } }).details?.nearMisses
  if (!Array.isArray(misses)) return []
  return misses.map((m: { id?: unknown, eventType?: unknown, method?: unknown, path?: unknown, status?: unknown, lastAttempt?: { error?: unknown, statusCode?: unknown } | null, differences?: Array<{ field: string, expected: unknown, actual: unknown }> }) => {
    const what = m.eventType !== undefined ? `delivery ${String(m.id)} (${String(m.eventType)}) ${String(m.status)}` : `request ${String(m.id)} ${String(m.method)} ${String(m.path)} ${String(m.status)}`
    const last = m.lastAttempt ? `, last attempt: ${String(m.lastAttempt.error ?? m.lastAttempt.statusCode)}` : ''
    const apart = (m.differences ?? []).map(d => `${d.field} ${JSON.stringify(d.actual)}, not ${JSON.stringify(d.expected)}`).join('; ')
    return `  near miss: ${what}${last}${apart === '' ? '' : `; differs in ${apart}`}`
  })
}

function unknownCommand (name: string): UsageError {
  return new UsageError(`unknown command "${name}"${meant(name, [...commands.map(c => c.name), 'help'])}`)
}

function failed (err: unknown, json: boolean, url: string, io: Io): number {
  const say = (code: number, message: string, body?: unknown): number => {
    if (json) io.stdout(JSON.stringify({ error: { exitCode: code, message, ...(body === undefined ? {} : { response: body }) } }) + '\n')
    io.stderr(`pix-sandbox: ${message}\n`)
    return code
  }
  if (err instanceof UsageError) {
    const hint = err.command ? `\n${usageOf(err.command).join('\n')}\n(pix-sandbox ${err.command.name} --help says more)` : '\n(pix-sandbox help lists the commands)'
    const code = say(EXIT.USAGE, err.message)
    io.stderr(hint.slice(1) + '\n')
    return code
  }
  if (err instanceof PixApiError) {
    const code = say(EXIT.REFUSED, `the sandbox refused: ${err.statusCode} ${err.messages.join('; ')}`, { statusCode: err.statusCode, body: err.body })
    for (const line of nearMissLines(err)) io.stderr(`${line}\n`)
    return code
  }
  const cause = (err as { cause?: { code?: string, message?: string } }).cause
  if (err instanceof TypeError && (cause !== undefined || /fetch/i.test(err.message))) {
    return say(EXIT.UNREACHABLE, `cannot reach a sandbox at ${url}: ${cause?.code ?? cause?.message ?? err.message} (is it running? pix-sandbox serve starts one; --url points elsewhere)`)
  }
  return say(EXIT.REFUSED, `unexpected failure: ${(err as Error).message ?? String(err)}`)
}
