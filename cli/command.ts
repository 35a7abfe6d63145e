import type { ParseArgsConfig } from 'node:util'
import { PixApiError, type PixClient } from '../client/index.js'
import { saoPauloInstant } from '../server/domain/calendar.js'
import { closest } from '../server/domain/names.js'

/**
 * What every command of `pix-sandbox <command>` is: a name, its help, its options, and a run that
 * talks to a running sandbox through the typed client and says what happened. A command is one
 * module under cli/commands/ and one line in cli/commands/index.ts.
 */

/** Exit codes a CI script can test (docs/cli.md). */
export const EXIT = {
  OK: 0,
  /** The sandbox answered, and refused (a 4xx or 5xx): its message is printed. */
  REFUSED: 1,
  /** The command line is wrong: unknown command or option, a missing or malformed value. */
  USAGE: 2,
  /** No sandbox answered at --url (refused, unknown host, not HTTP). */
  UNREACHABLE: 3,
  /** `report`: the integration report has a failed check. */
  CHECKS_FAILED: 4,
} as const

export type Options = NonNullable<ParseArgsConfig['options']>
export type Values = Record<string, string | boolean | undefined>

/** Where a command writes, and what it reads from its process; tests pass their own. */
export interface Io {
  stdout: (text: string) => void
  stderr: (text: string) => void
  env: Record<string, string | undefined>
  /** Ends a long-running command (tail) as Ctrl-C does. */
  signal?: AbortSignal
  fetch?: typeof fetch
}

export interface Context {
  /** A client of the control plane (admin token from SANDBOX_ADMIN_TOKEN or --admin-token). */
  sandbox: PixClient
  url: string
  json: boolean
  io: Io
  /**
   * Prints a result: the value as one line of JSON under --json, else the human lines. A command that
   * streams (tail) calls it once per event, which makes --json output one JSON object per line.
   */
  print: (value: unknown, human: () => string[]) => void
  signal: AbortSignal
}

export interface Command {
  name: string
  /** One line for `pix-sandbox help`. */
  summary: string
  /** The usage line(s), without the global options. */
  usage: string[]
  /** What `pix-sandbox <name> --help` adds under the usage: options, examples. */
  details: string[]
  options?: Options
  /** Resolves to the exit code when it is not 0 (report: a failed check). */
  run: (ctx: Context, positionals: string[], values: Values) => Promise<void | number>
}

/** A mistake on the command line: exit code 2, with the command's usage. */
export class UsageError extends Error {
  constructor (message: string, readonly command?: Command) {
    super(message)
  }
}

/**
 * An event type the CLI does not know among the built-in ones may be one of another dialect of the
 * sandbox (Mercado Pago's `mercado_pago_payment`): it is sent, and the sandbox's refusal of a name none
 * of its dialects makes (400, naming the ones it takes) is a usage error.
 */
export async function asEventType<T> (eventType: string, command: Command, call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (err) {
    const message = err instanceof PixApiError && err.statusCode === 400 ? (err.body as { message?: unknown }).message : undefined
    if (typeof message === 'string' && message.startsWith('eventType')) throw new UsageError(`unknown event "${eventType}": ${message}`, command)
    throw err
  }
}

/** A usage error for an option's value: that it is missing, or what it should be instead of what it is. */
function badValue (value: string | boolean | undefined, option: string, expected: string, command: Command): UsageError {
  return new UsageError(typeof value === 'string' ? `${option} needs ${expected}, not "${value}"` : `${option} is required: ${expected}`, command)
}

/** `--account N` and friends: a positive integer or a usage error. */
export function positiveInteger (value: string | boolean | undefined, option: string, command: Command): number {
  if (typeof value !== 'string' || !/^[1-9]\d{0,9}$/.test(value)) throw badValue(value, option, 'a positive integer such as 1', command)
  return Number(value)
}

/** `--amount 12.34`: an amount in BRL with at most 2 decimals. */
export function amount (value: string | boolean | undefined, option: string, command: Command): number {
  if (typeof value !== 'string' || !/^\d{1,12}(\.\d{1,2})?$/.test(value) || Number(value) === 0) throw badValue(value, option, 'an amount in BRL such as 12.34', command)
  return Number(value)
}

/** `: did you mean tail?` when a known word is one slip away from what was typed, else nothing. */
export function meant (given: string, known: Iterable<string>): string {
  const name = closest(given.toLowerCase(), known)
  return name === undefined ? '' : `: did you mean ${name}?`
}

/**
 * A time of the API (UTC, `...Z`) as the human output shows every time: São Paulo time with its offset
 * (docs/assumptions.md); `--json` keeps the API's own.
 */
export function localTime (iso: string): string {
  const ms = Date.parse(iso)
  return Number.isNaN(ms) ? iso : saoPauloInstant(ms)
}

export function brl (value: number): string {
  return `${value.toFixed(2)} BRL`
}
