import type { FastifyPluginAsync } from 'fastify'
import token from './token.js'
import balance from './balance.js'

/** The standard family: /api/* (and /balance), extended error shape. */
const standardRoutes: FastifyPluginAsync = async (app) => {
  await app.register(token)
  await app.register(balance)
}

export default standardRoutes
