import type { Account } from '../store/state.js'
import type { SeededRng } from '../domain/ids.js'

/**
 * The sample payloads of `POST /__sandbox/webhooks/test` and of the report's probe: one plausible
 * event of each delivery event type of the app's dialects (each its descriptor's `deliveries`, in the
 * registry's order), in the shape the real notifications have, with a fixed amount of 10.00 BRL, so an
 * integrator can point a receiver at the sandbox and check parsing and signature before any money
 * moves. Pure: time and randomness come in.
 */
export interface SampleContext {
  account: Account
  transactionId: string
  nowMs: number
  rng: SeededRng
}

/** An attempt of a delivery about to go out, as a dialect signs it. */
export interface AttemptToSign {
  deliveryId: string
  accountId: number
  eventType: string
  transactionId: string | null
  /** The body as sent. */
  body: string
  /** Sandbox time of the attempt, in seconds. */
  timestamp: number
  /** Whether the attempt is to carry a forged signature (WEBHOOK_BAD_SIGNATURE, the report's probe). */
  forged: boolean
}

/** A delivery event type of a dialect: its sample, where it goes besides the registrations of its type, and its own headers. */
export interface DeliveryType {
  sample (ctx: SampleContext): unknown
  /** The URLs the account's own webhooks of the type post it to (API Pix's callbacks); none when only registrations take it. */
  receivers? (accountId: number): string[]
  /** Headers of its own on each attempt (a PSP's signature), beside the sandbox's (X-Sandbox-Signature and the rest). */
  headers? (attempt: AttemptToSign): Record<string, string>
  /** Its attempts to an https receiver present the sandbox's client certificate (a PSP's mutual TLS, docs/webhooks.md). */
  clientCertificate?: boolean
}

/** The app's delivery event types, in the registry's order (the gateway's events, then API Pix's callbacks). */
export class DeliveryTypes {
  private readonly byType = new Map<string, DeliveryType>()

  add (types: Readonly<Record<string, DeliveryType>>): void {
    for (const [type, def] of Object.entries(types)) this.byType.set(type, def)
  }

  get types (): string[] {
    return [...this.byType.keys()]
  }

  has (type: string): boolean {
    return this.byType.has(type)
  }

  sample (type: string, ctx: SampleContext): unknown {
    const def = this.byType.get(type)
    if (def === undefined) throw new Error(`no sample of event type ${type}`)
    return def.sample(ctx)
  }

  receivers (type: string, accountId: number): string[] {
    return this.byType.get(type)?.receivers?.(accountId) ?? []
  }

  /** Whether the type adds headers of its own (the built-in ones do not: an attempt of theirs builds nothing more). */
  signs (type: string): boolean {
    return this.byType.get(type)?.headers !== undefined
  }

  /** Whether the type's attempts to an https receiver present the sandbox's client certificate. */
  presentsCertificate (type: string): boolean {
    return this.byType.get(type)?.clientCertificate === true
  }

  headers (attempt: AttemptToSign): Record<string, string> {
    return this.byType.get(attempt.eventType)?.headers?.(attempt) ?? {}
  }
}
