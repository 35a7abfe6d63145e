import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

/** POST /dict/pix (spec 2.3). Owned by the pay-outs capability. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  void app
}

export default routes
