import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

/** /__sandbox/pix/pay and /__sandbox/pix/incoming. Owned by the pay-ins capability. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  void app
}

export default routes
