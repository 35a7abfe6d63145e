import type { FastifyRequest } from 'fastify'
import { sameSecret } from '../../auth/secrets.js'

/**
 * Whether the request may use the control plane: anyone when no admin token is configured, else only
 * a request carrying it (`X-Sandbox-Admin-Token`, or `Authorization: Bearer <admin token>`).
 */
export function mayControl (request: FastifyRequest, adminToken: string | undefined): boolean {
  if (!adminToken) return true
  const header = request.headers['x-sandbox-admin-token']
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1]
  const given = typeof header === 'string' ? header : bearer
  return given !== undefined && sameSecret(given, adminToken)
}
