import { helpText, loadConfig, requestedLogLevel, type Config } from './config.js'
import { VERSION } from './version.js'
import { StartupError } from './errors/startup.js'
import { failureLines, startupLines } from './startup.js'

/**
 * The process: reads flags and environment, builds the app, listens, and shuts down gracefully on
 * SIGTERM/SIGINT (stop accepting, finish in-flight requests, cut what a client leaves open, flush the
 * store, exit 0: serve.ts's stop).
 * Nothing else in the code base reads process.env.
 *
 * A start that fails prints one line on stderr, `pix-sandbox: <reason>` (startup.ts), and exits
 * with the StartupError's code: 2 for a bad flag, setting or data file, 1 for anything else.
 */
async function main (argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(helpText() + '\n')
    return
  }
  if (argv.includes('--version')) {
    process.stdout.write(`pix-sandbox ${VERSION}\n`)
    return
  }
  const config: Config = loadConfig(process.env, argv)
  // The server is loaded only to serve: --help, --version and a bad flag answer without loading Fastify.
  const { serve } = await import('./serve.js')
  const { app, said, stop } = await serve(config)
  let closing = false
  const shutdown = (signal: string): void => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    stop().then(() => process.exit(0), (err: unknown) => {
      app.log.error({ err }, 'shutdown failed')
      process.exit(1)
    })
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
  const { seed, version, notices } = app.sandbox
  app.log.info({ address: said.urls[0], addresses: said.urls, dashboard: said.dashboard, docs: said.docs, seed, version, data: config.data ?? 'memory' }, `pix-sandbox listening on ${said.urls.join(', ')} (seed ${seed})`)
  if (said.warning) app.log.warn({ host: config.host, adminToken: false }, said.warning)
  for (const line of startupLines(said, { version, seed, data: config.data, notices }, config.logLevel)) process.stderr.write(line + '\n')
}

// `pix-sandbox serve [flags]` is serving said out loud (the package's command and the image take it too).
const argv = process.argv.slice(process.argv[2] === 'serve' ? 3 : 2)
main(argv).catch((err: unknown) => {
  for (const line of failureLines(err, requestedLogLevel(process.env, argv))) process.stderr.write(line + '\n')
  process.exit(err instanceof StartupError ? err.exitCode : 1)
})
