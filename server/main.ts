import { readFileSync } from 'node:fs'
import { ConfigError, helpText, loadConfig } from './config.js'
import { buildApp } from './app.js'

/**
 * The process: reads flags and environment, builds the app, listens, and shuts down gracefully on
 * SIGTERM/SIGINT (stop accepting, finish in-flight requests, flush the store, exit 0).
 * Nothing else in the code base reads process.env.
 */
async function main (): Promise<void> {
  const argv = process.argv.slice(2)
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(helpText() + '\n')
    return
  }
  let config
  try {
    config = loadConfig(process.env, argv)
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`pix-sandbox: ${err.message}\n\nRun with --help to list every setting.\n`)
      process.exit(2)
    }
    throw err
  }
  const https = config.tlsCert && config.tlsKey
    ? { cert: readFileSync(config.tlsCert), key: readFileSync(config.tlsKey), requestCert: true, rejectUnauthorized: false }
    : undefined
  const app = await buildApp({
    config,
    https,
    // Silent means no logger at all: a silent pino logger still gets a child made for every request.
    logger: config.logLevel === 'silent'
      ? false
      : {
          level: config.logLevel,
          redact: { paths: ['req.headers.authorization', 'req.headers["x-ssl-client-cert"]', 'req.headers["x-sandbox-admin-token"]', '*.clientSecret', '*.privateKey'], censor: '[redacted]' },
        },
  })
  let closing = false
  const shutdown = (signal: string): void => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    app.close().then(() => process.exit(0), (err: unknown) => {
      app.log.error({ err }, 'shutdown failed')
      process.exit(1)
    })
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
  const address = await app.listen({ port: config.port, host: config.host })
  app.log.info({ address, seed: app.sandbox.seed, version: app.sandbox.version, data: config.data ?? 'memory' }, `pix-sandbox listening on ${address} (seed ${app.sandbox.seed})`)
}

main().catch((err: unknown) => {
  process.stderr.write(`pix-sandbox: failed to start: ${err instanceof Error ? err.stack : String(err)}\n`)
  process.exit(1)
})
