import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

/** POST /api/pix/cash-out and /api/pix/cash-out-qrcode (spec 2.4, 2.5). Owned by the pay-outs capability. */
const routes: FastifyPluginAsyncTypebox = async (app) => {
  void app
}

export default routes
