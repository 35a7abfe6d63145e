import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

/** /__sandbox/directory: the key directory. Owned by the pay-outs capability. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  void app
}

export default routes
