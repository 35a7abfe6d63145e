import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Endpoint } from '../../scenarios/types.js'

/**
 * The scenario endpoint of each gateway operation that takes scenarios, by operationId. Every other
 * operation of the two gateway families takes none.
 */
const SCENARIO_ENDPOINTS: Readonly<Record<string, Endpoint>> = {
  cashOut: 'cash-out',
  cashOutQrCode: 'cash-out-qrcode',
  dictTransfer: 'dict-pix',
  cashIn: 'cash-in',
  createCob: 'cob',
  createCobWithGeneratedTxid: 'cob',
  refundIn: 'refund-in',
  createDevolucao: 'devolucao',
  listMed: 'med-list',
}

const GATEWAY_TAGS = new Set(['Standard', 'Central bank'])

/**
 * An unknown X-Sandbox-Scenario is a 400 on every operation of both gateway families (README,
 * Scenarios), checked once the caller is known and before anything happens: a read or the token
 * would otherwise answer 200 to a name that does nothing there, and a repeated /dict/pix would
 * answer its stored transfer. The control plane's operations that take scenarios check them where
 * they read them.
 */
async function scenarioHeaderPlugin (app: FastifyInstance): Promise<void> {
  app.addHook('preHandler', (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    const header = request.headers['x-sandbox-scenario']
    if (typeof header !== 'string' || header.trim() === '') return done()
    const schema = request.routeOptions.schema
    if (!schema?.tags?.some(tag => GATEWAY_TAGS.has(tag))) return done()
    const operationId = (schema as { operationId?: string }).operationId ?? ''
    const endpoint = SCENARIO_ENDPOINTS[operationId] ?? null
    try {
      app.sandbox.scenarios.parseHeader(header, endpoint, endpoint ?? `${request.method} ${request.routeOptions.url ?? ''}`)
      done()
    } catch (err) {
      done(err as Error)
    }
  })
}

export default fp(scenarioHeaderPlugin, { name: 'scenario-header' })
