import { spawn, type ChildProcess } from 'node:child_process'
import { commandBundle } from './command-bundle.js'
import { childEnv } from './process.js'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { Agent, request, type Dispatcher } from 'undici'

/**
 * Helpers of the reliability tests (test/reliability): the error shapes of docs/gateway.md §7 as key sets, a real
 * sandbox process (server/main.ts, bundled: command-bundle.ts) on a free port of 127.0.0.1, and small HTTP
 * helpers that never throw on a status.
 */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

const EXTENDED_REQUIRED = ['statusCode', 'timestamp', 'path', 'method', 'code', 'message', 'userMessage', 'errorId']
const EXTENDED_ALLOWED = new Set([...EXTENDED_REQUIRED, 'error', 'errorCode', 'details'])
const SIMPLE_REQUIRED = ['statusCode', 'message']
const SIMPLE_ALLOWED = new Set([...SIMPLE_REQUIRED, 'error'])
// The control plane: the simple shape plus its `code`, and `details` where there are some.
const SANDBOX_REQUIRED = ['statusCode', 'message', 'code']
const SANDBOX_ALLOWED = new Set([...SANDBOX_REQUIRED, 'error', 'details'])
// API Pix: RFC 7807 problem details; its OAuth token: RFC 6749's error.
const PROBLEM_REQUIRED = ['type', 'title', 'status']
// `nome` and `mensagem`: Efí's words on a refusal of a webhook's receiver, members the problem declares (docs/assumptions.md, Webhooks).
const PROBLEM_ALLOWED = new Set([...PROBLEM_REQUIRED, 'detail', 'violacoes', 'correlationId', 'nome', 'mensagem'])
const OAUTH_REQUIRED = ['error']
const OAUTH_ALLOWED = new Set([...OAUTH_REQUIRED, 'error_description'])
// Mercado Pago's: `message`, `error`, `status` and the `cause` list of its codes; its unknown-resource
// 404 has no `status`, as production's (docs/assumptions.md, Mercado Pago).
const MERCADO_PAGO_REQUIRED = ['message', 'error']
const MERCADO_PAGO_ALLOWED = new Set([...MERCADO_PAGO_REQUIRED, 'status', 'cause'])

export type ErrorFamily = 'extended' | 'simple' | 'sandbox' | 'problem' | 'oauth' | 'mercado-pago' | 'efi'

/** The shape of an error body by the name the app gives it (the gateway token's is the simple one: test/helpers/errors.ts, errorShapeOf). */
export const SHAPE_OF: Record<string, ErrorFamily> = { extended: 'extended', simple: 'simple', sandbox: 'sandbox', problem: 'problem', oauth: 'oauth', 'mercado-pago': 'mercado-pago', efi: 'efi' }

// Efí's own routes (docs/efi.md, Errors): { nome, mensagem }, or problem details, or OAuth's insufficient_scope.
const EFI_NAMED = ['nome', 'mensagem']

const REQUIRED: Record<Exclude<ErrorFamily, 'efi'>, string[]> = { extended: EXTENDED_REQUIRED, simple: SIMPLE_REQUIRED, sandbox: SANDBOX_REQUIRED, problem: PROBLEM_REQUIRED, oauth: OAUTH_REQUIRED, 'mercado-pago': MERCADO_PAGO_REQUIRED }
const ALLOWED: Record<Exclude<ErrorFamily, 'efi'>, Set<string>> = { extended: EXTENDED_ALLOWED, simple: SIMPLE_ALLOWED, sandbox: SANDBOX_ALLOWED, problem: PROBLEM_ALLOWED, oauth: OAUTH_ALLOWED, 'mercado-pago': MERCADO_PAGO_ALLOWED }

/** Why `body` is not an error of the family's shape with this status, or null when it is. */
export function shapeProblem (family: ErrorFamily, status: number, raw: string): string | null {
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch {
    return `not JSON: ${raw.slice(0, 120)}`
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `not an object: ${raw.slice(0, 120)}`
  const b = body as Record<string, unknown>
  const keys = Object.keys(b)
  if (family === 'efi') {
    if (keys.length === 2 && EFI_NAMED.every(k => typeof b[k] === 'string')) return null
    if ('type' in b) return shapeProblem('problem', status, raw) === null || (typeof b.type === 'string' && b.type.startsWith('https://api-pix.gerencianet.com.br/v2/gn/') && b.status === status) ? null : `not Efí's problem details: ${raw.slice(0, 200)}`
    return status === 403 && b.error === 'insufficient_scope' ? null : `not an error of Efí's: ${raw.slice(0, 200)}`
  }
  // Mercado Pago's PolicyAgent answers its 403 in a shape of its own (docs/mercado-pago.md, POLICY_AGENT_UNAUTHORIZED).
  if (family === 'mercado-pago' && status === 403 && b.blocked_by === 'PolicyAgent') {
    return keys.length === 4 && typeof b.message === 'string' && b.status === 403 && typeof b.code === 'string' ? null : `not PolicyAgent's 403: ${raw.slice(0, 200)}`
  }
  const missing = REQUIRED[family].filter(k => !(k in b))
  const extra = keys.filter(k => !ALLOWED[family].has(k))
  if (missing.length > 0 || extra.length > 0) return `${family} shape: missing [${missing}] extra [${extra}] in ${raw.slice(0, 200)}`
  if (family === 'problem') {
    if (b.status !== status) return `status ${String(b.status)} in the body, ${status} on the wire`
    if (('nome' in b || 'mensagem' in b) && (typeof b.nome !== 'string' || b.mensagem !== b.detail)) return `nome and mensagem go together, mensagem as detail: ${raw.slice(0, 200)}`
    return typeof b.type === 'string' && b.type.startsWith('https://pix.bcb.gov.br/api/v2/error/') && typeof b.title === 'string' ? null : 'type or title is not API Pix\'s'
  }
  if (family === 'oauth') return typeof b.error === 'string' ? null : 'error is not a string'
  if (family === 'mercado-pago') return (b.status === status || (status === 404 && !('status' in b))) && typeof b.message === 'string' ? null : `status ${String(b.status)} in the body, ${status} on the wire`
  if (b.statusCode !== status) return `statusCode ${String(b.statusCode)} in the body, ${status} on the wire`
  if (family === 'extended') {
    if (!(typeof b.message === 'string' || (Array.isArray(b.message) && b.message.every(m => typeof m === 'string')))) return 'message is neither a string nor a list of strings'
    if (('error' in b) === ('errorCode' in b)) return 'extended shape carries exactly one of error / errorCode'
  } else if (typeof b.message !== 'string') return 'message is not a string'
  if (family === 'sandbox' && typeof b.code !== 'string') return 'code is not a string'
  return null
}

/** A port of 127.0.0.1 that was free a moment ago. */
export async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>(resolve => server.close(() => resolve()))
  return port
}

export interface Answer {
  status: number
  body: string
  json: () => any
  headers: Record<string, string | string[] | undefined>
}

/** One HTTP request with undici; never throws on a status (it throws on a network error). */
export async function call (base: string, method: string, path: string, opts: { body?: unknown, headers?: Record<string, string>, timeoutMs?: number, dispatcher?: Dispatcher } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers }
  let body: string | undefined
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body)
    headers['content-type'] ??= 'application/json'
  }
  const res = await request(base + path, { method: method as 'GET', headers, body, headersTimeout: opts.timeoutMs ?? 30_000, bodyTimeout: opts.timeoutMs ?? 30_000, dispatcher: opts.dispatcher })
  const text = await res.body.text()
  return { status: res.statusCode, body: text, json: () => JSON.parse(text), headers: res.headers }
}

export interface SandboxProcess {
  child: ChildProcess
  port: number
  base: string
  /** What `call` needs to reach it: with `https`, a dispatcher that trusts its certificate. */
  dispatcher?: Dispatcher
  /** Everything written to stdout and stderr so far. */
  output: () => string
  /** Resolves with the exit code and signal once the process has ended. */
  exited: Promise<{ code: number | null, signal: NodeJS.Signals | null }>
  kill: (signal: NodeJS.Signals) => void
}

/**
 * Starts the real process on a free port of 127.0.0.1 and resolves once /__sandbox/health answers 200.
 * `https` when `args` carry --tls-cert and --tls-key. The caller must end it (kill) in a teardown.
 */
export async function startProcess (args: string[], opts: { readyTimeoutMs?: number, env?: Record<string, string>, https?: boolean } = {}): Promise<SandboxProcess> {
  const port = await freePort()
  const child = spawn(process.execPath, [commandBundle(), '--port', String(port), '--host', '127.0.0.1', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...childEnv(), ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout!.on('data', (c: Buffer) => { out += c.toString('utf8') })
  child.stderr!.on('data', (c: Buffer) => { out += c.toString('utf8') })
  const exited = new Promise<{ code: number | null, signal: NodeJS.Signals | null }>(resolve => child.once('exit', (code, signal) => resolve({ code, signal })))
  const base = `${opts.https ? 'https' : 'http'}://127.0.0.1:${port}`
  const dispatcher = opts.https ? new Agent({ connect: { rejectUnauthorized: false } }) : undefined
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 30_000)
  let ended = false
  void exited.then(() => { ended = true })
  for (let i = 0; ; i++) {
    if (ended) throw new Error(`the sandbox exited before it was healthy:\n${out}`)
    try {
      const res = await call(base, 'GET', '/__sandbox/health', { timeoutMs: 2000, dispatcher })
      if (res.status === 200) break
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`the sandbox was not healthy within ${opts.readyTimeoutMs ?? 30_000} ms:\n${out}`)
    }
    await new Promise(resolve => setTimeout(resolve, 50))
  }
  return {
    child,
    port,
    base,
    dispatcher,
    output: () => out,
    exited,
    kill: (signal) => { if (child.exitCode === null && child.signalCode === null) child.kill(signal) },
  }
}

export const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms))

/** Sends the process a signal (when there is one still running) and settles once it has ended. */
export async function stop (proc: SandboxProcess | null, signal: NodeJS.Signals): Promise<void> {
  if (proc === null) return
  proc.kill(signal)
  await proc.exited
}

/** Settles once the process has written `text` (to stdout or stderr), or has exited. */
export function written (proc: SandboxProcess, text: string): Promise<void> {
  return new Promise(resolve => {
    const streams = [proc.child.stdout!, proc.child.stderr!]
    const check = (): void => {
      if (!proc.output().includes(text)) return
      for (const s of streams) s.off('data', check)
      resolve()
    }
    // After startProcess's own listeners, so output() already holds the chunk.
    for (const s of streams) s.on('data', check)
    void proc.exited.then(() => resolve())
    check()
  })
}

/** The ledger invariant (docs/assumptions.md, Balances) recomputed from the control plane's account view (BRL). */
export function ledgerProblems (a: any): string[] {
  const problems: string[] = []
  const cents = (n: number) => Math.round(n * 100)
  const available = cents(a.balance.available)
  const blocked = cents(a.balance.blocked)
  const t = a.totals
  if (a.invariantHolds !== true) problems.push(`account ${a.accountId}: invariantHolds is ${String(a.invariantHolds)}`)
  if (available < 0 || blocked < 0) problems.push(`account ${a.accountId}: negative balance ${available}/${blocked}`)
  const expected = cents(t.opening) + cents(t.adjustments) + cents(t.settledIn) - cents(t.settledOut) - cents(t.fees)
  if (available + blocked !== expected) problems.push(`account ${a.accountId}: available+blocked ${available + blocked} != ${expected} from the totals`)
  return problems
}

export function percentile (values: number[], p: number): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

/** The X-SSL-Client-Cert header value of a PEM (percent-encoded, RFC 3986). */
export const certHeaderOf = (pem: string): string => encodeURIComponent(pem)
