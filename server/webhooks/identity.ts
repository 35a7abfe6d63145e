/**
 * The sandbox's identity as a PSP towards webhook receivers (docs/webhooks.md, mutual TLS): the client
 * certificate it presents to an https receiver of an event type that asks for it (API Pix's callbacks,
 * whose service BACEN's API Pix says "está protegido por uma camada de autenticação mTLS"), and the CA
 * a receiver trusts to accept it. Given by --webhook-client-cert/--webhook-client-key, or the one shipped
 * in fixtures/certs/ (server/startup.ts), the same at every start so a receiver can trust it ahead of time.
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
  /** --webhook-client-cert and --webhook-client-key, or the shipped identity. */
  client: ClientIdentity
  /** --webhook-receiver-ca: trusted for receivers' server certificates besides Node's own. */
  receiverCa?: string
}
