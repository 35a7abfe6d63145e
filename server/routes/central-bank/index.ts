import type { FastifyPluginAsync } from 'fastify'
import balances from './balances.js'

/** The central-bank-compatible family: no prefix, simple error shape. */
const centralBankRoutes: FastifyPluginAsync = async (app) => {
  await app.register(balances)
}

export default centralBankRoutes
