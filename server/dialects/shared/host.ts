import type { FastifyRequest } from 'fastify'
import { isLocationHost } from '../../domain/payload-locations.js'

/**
 * Where payers reach the sandbox (API Pix's and Efí's dialects), for the payload locations it creates and the `jku` of their
 * signatures (docs/assumptions.md, API Pix): --public-url when set, else the Host the request was sent
 * to (the address a client used, which a payer on the same machine can use too), else `localhost` and
 * the port the sandbox listens on.
 */
export function locationHost (request: FastifyRequest): string {
  const publicUrl = request.server.sandbox.config.publicUrl
  if (publicUrl !== undefined) return new URL(publicUrl).host
  const host = request.headers.host
  if (typeof host === 'string' && isLocationHost(host)) return host.toLowerCase()
  const port = request.server.sandbox.config.port
  return port === 0 ? 'localhost' : `localhost:${port}`
}

/** The scheme payers reach the sandbox with: --public-url's, else the request's own. */
export function payerScheme (request: FastifyRequest): 'http' | 'https' {
  const publicUrl = request.server.sandbox.config.publicUrl
  if (publicUrl !== undefined) return publicUrl.startsWith('https:') ? 'https' : 'http'
  return request.protocol === 'https' ? 'https' : 'http'
}
