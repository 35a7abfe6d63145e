import type { FastifyPluginAsync } from 'fastify'
import balances from './balances.js'
import dict from './dict.js'
import cob from './cob.js'
import devolucao from './devolucao.js'
import pix from './pix.js'
import { registerNamed } from '../../../../named-plugins.js'

/** The central-bank-compatible family: no prefix, simple error shape. */
const centralBankRoutes: FastifyPluginAsync = async (app) => {
  await registerNamed(app, { balances, dict, cob, devolucao, pix })
}

export default centralBankRoutes
