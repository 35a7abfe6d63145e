import { createClient, type AccountSettings, type Clock, type CreatedAccount, type Delivery, type DeliveryEventType, type DeliveryWait, type DialectEventType, type PixClient, type RequestVerification, type ResetRequest, type RequestsVerified } from '../client/index.js'
import { configFromOptions, type Config } from './config.js'
import { serve } from './serve.js'

/**
 * The package's entry (`import { startSandbox } from 'pix-sandbox'`): a sandbox inside the test
 * process, as msw's setupServer() is, but a real server on 127.0.0.1 that the code under test
 * reaches over HTTP like the real gateway. Everything after the start goes through the typed client,
 * so a test drives the in-process sandbox exactly as it would drive a container.
 */

/**
 * Every setting of the command line, by its Config name (`settlementDelayMs` for
 * `--settlement-delay-ms`). Left out, a setting takes the command's default, but for `logLevel`:
 * silent, so a test's output stays the test runner's. `port: 0` picks a free port.
 */
export type SandboxOptions = Partial<Config>

/** An account made for a test: its credentials, a bearer token, and a client signed in as it. */
export interface SandboxAccount extends CreatedAccount {
  /** A valid access token (Authorization: Bearer ...), issued with the account's certificate. */
  token: string
  /** A client of the gateway API as this account (it renews the token), with the control plane under `client.sandbox`. */
  client: PixClient
}

export interface RunningSandbox {
  /** Where it listens: `http://127.0.0.1:<port>` (https with TLS). Point your gateway base URL here. */
  url: string
  port: number
  /** The seed of ids and random faults: the same seed gives the same ids. */
  seed: string
  version: string
  /** The settings in force, defaults filled in. */
  config: Readonly<Config>
  /** A client of the control plane (`client.sandbox.*`); gateway calls need an account's client. */
  client: PixClient
  /** A fresh isolated account (settings default as in fixtures/default.json), with a token and a client. */
  createAccount: (settings?: AccountSettings) => Promise<SandboxAccount>
  /** Moves the sandbox clock forward, running every timed effect due on the way (settlements, expiries, retries). */
  advanceClock: (ms: number) => Promise<Clock>
  /**
   * Everything back to the fixtures (no restart, same port), or one account (by its id) to its first state.
   * `{ clockStart, clock }` starts the clock of a full reset there, earlier than now if need be, for this reset alone.
   */
  reset: (target?: number | ResetRequest) => Promise<void>
  /**
   * The newest webhook delivery matching the filter, as soon as one exists. With `eventType`, its
   * body is typed as that event's payload (`delivery.body.data.status` for `cash_in`). After `timeoutMs`
   * (10 s) a PixApiError WAIT_TIMEOUT whose message says what became of the closest delivery (no
   * receiver, pending after a refused connection) and whose `body.details.nearMisses` lists up to five.
   */
  waitForDelivery: <E extends DeliveryEventType | DialectEventType = DeliveryEventType>(filter: DeliveryWait & { eventType?: E }) => Promise<Delivery<E>>
  /** Resolves when the request journal holds the expected matches; else rejects with a PixApiError (409) listing the near misses in `body.details.nearMisses`. */
  verifyRequests: (verification: RequestVerification) => Promise<RequestsVerified>
  /**
   * Stops listening and frees the port, the timers and the webhook sender thread; a --data file is
   * flushed. Ends whatever clients keep open: idle connections are closed, a request still arriving
   * gets a few seconds (docs/reliability.md, "Stopping").
   */
  close: () => Promise<void>
  /** `await using sandbox = await startSandbox(...)` closes it at the end of the block. */
  [Symbol.asyncDispose]: () => Promise<void>
}

export async function startSandbox (options: SandboxOptions = {}): Promise<RunningSandbox> {
  const config = configFromOptions({ logLevel: 'silent', ...options })
  const { app, said, https, stop } = await serve(config)
  const port = (app.server.address() as { port: number }).port
  // The sandbox's own TLS certificate is whatever the test gave it: the clients here trust it.
  // (undici loaded only then: it is a tenth of the start's module loading.)
  const Agent = https ? (await import('undici')).Agent : undefined
  const agents: Array<{ close: () => Promise<void> }> = []
  /** Over HTTPS: a fetch that trusts the sandbox's certificate and, for an account, shows its client certificate in the handshake. */
  const fetchOver = (client?: { cert: string, key: string }): { fetch: typeof fetch } | Record<string, never> => {
    if (Agent === undefined) return {}
    const agent = new Agent({ connect: { rejectUnauthorized: false, ...client } })
    agents.push(agent)
    return { fetch: (input, init) => fetch(input, { ...init, dispatcher: agent } as RequestInit) }
  }
  const connect = { baseUrl: said.url, adminToken: config.adminToken }
  const client = createClient({ ...connect, ...fetchOver() })

  let closed: Promise<void> | undefined
  const close = (): Promise<void> => {
    closed ??= stop().then(async () => { await Promise.all(agents.map(a => a.close())) })
    return closed
  }

  return {
    url: said.url,
    port,
    seed: app.sandbox.seed,
    version: app.sandbox.version,
    config,
    client,
    async createAccount (settings = {}) {
      const created = await client.sandbox.createAccount(settings)
      // Over HTTPS the certificate is the handshake's (the header counts only behind a terminator that sets it).
      const own = createClient({ ...connect, ...fetchOver({ cert: created.certificate, key: created.privateKey }), clientId: created.clientId, clientSecret: created.clientSecret, certificate: created.certificate })
      const { access_token: token } = await own.issueToken()
      return { ...created, token, client: own }
    },
    advanceClock: ms => client.sandbox.advanceClock(ms),
    async reset (target) { await client.sandbox.reset(target) },
    waitForDelivery: filter => client.sandbox.waitForDelivery(filter),
    verifyRequests: verification => client.sandbox.verifyRequests(verification),
    close,
    [Symbol.asyncDispose]: close,
  }
}

export { createClient, PixApiError, PixClient } from '../client/index.js'
export type * from '../client/index.js'
export { ConfigError } from './config.js'
export type { Config } from './config.js'
