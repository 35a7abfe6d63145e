import type { FastifyPluginAsync } from 'fastify'
import token from './token.js'
import balance from './balance.js'
import cashOut from './cash-out.js'
import cashIn from './cash-in.js'
import refundIn from './refund-in.js'
import med from './med.js'
import webhooks from './webhooks.js'
import { registerNamed } from '../../../../named-plugins.js'

/** The standard family: /api/* (and /balance), extended error shape. */
const standardRoutes: FastifyPluginAsync = async (app) => {
  await registerNamed(app, { token, balance, cashOut, cashIn, refundIn, med, webhooks })
}

export default standardRoutes
