import { createHmac } from 'node:crypto'

/**
 * The delivery signature, a documented sandbox extension (docs/gateway.md §6.2 says signing is "not shown").
 * Recipe for receivers: take the X-Sandbox-Timestamp header (unix seconds of the sandbox clock) and
 * the raw request body exactly as received, compute HMAC-SHA256 with the shared secret
 * (SANDBOX_WEBHOOK_SECRET) over `${timestamp}.${body}`, hex-encode it, and compare it in constant
 * time with X-Sandbox-Signature minus its `v1=` prefix. The timestamp is signed too so a captured
 * request cannot be replayed later with a fresh timestamp.
 */
export const SIGNATURE_SCHEME = 'v1'

export function signDelivery (secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
  return `${SIGNATURE_SCHEME}=${mac}`
}
