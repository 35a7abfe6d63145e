import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

/** /__sandbox/med: open and move MED disputes. Owned by the pay-ins capability. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  void app
}

export default routes
