/**
 * The sandbox's identity as a PSP towards webhook receivers (docs/webhooks.md, mutual TLS): the client
 * certificate it presents to an https receiver of an event type that asks for it (API Pix's callbacks,
 * whose service BACEN's API Pix says "está protegido por uma camada de autenticação mTLS"), and the CA
 * a receiver trusts to accept it. Given by --webhook-client-cert/--webhook-client-key, or made on first
 * use (a CA of its own and a certificate it issued), so a sandbox that never needs it never pays for it.
 */
export interface ClientIdentity {
  /** PEM: the client certificate, then the CA certificates that issued it (sent together in a handshake). */
  certificate: string
  privateKey: string
  /** PEM of the CA certificates a receiver trusts to accept the certificate. */
  ca: string
}

/** What the sandbox's TLS towards receivers is made of, read from the settings at start. */
export interface WebhookTls {
  /** --webhook-client-cert and --webhook-client-key; absent: made on first use. */
  client?: ClientIdentity
  /** --webhook-receiver-ca: trusted for receivers' server certificates besides Node's own. */
  receiverCa?: string
}

export class WebhookIdentity {
  private made: Promise<ClientIdentity> | null = null
  private ready: ClientIdentity | null

  constructor (given: ClientIdentity | undefined, private readonly generate: () => Promise<ClientIdentity>) {
    this.ready = given ?? null
  }

  /** The identity once it exists (given, or made by an earlier `get`), without waiting. */
  get current (): ClientIdentity | null {
    return this.ready
  }

  /** The identity, made once, the first time it is asked for. */
  get (): Promise<ClientIdentity> {
    if (this.ready !== null) return Promise.resolve(this.ready)
    this.made ??= this.generate().then(identity => {
      this.ready = identity
      return identity
    }, err => {
      this.made = null // a later attempt tries again
      throw err
    })
    return this.made
  }
}
