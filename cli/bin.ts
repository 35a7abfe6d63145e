import { run } from './main.js'

/**
 * The process of `pix-sandbox <command>` (bin/pix-sandbox.js loads it for anything but serving):
 * Ctrl-C ends a running tail cleanly, with exit code 0.
 */
const controller = new AbortController()
process.once('SIGINT', () => controller.abort())
process.once('SIGTERM', () => controller.abort())
const code = await run(process.argv.slice(2), {
  stdout: text => process.stdout.write(text),
  stderr: text => process.stderr.write(text),
  env: process.env,
  signal: controller.signal,
})
process.exitCode = code
// Keep-alive connections of fetch would hold the process a few seconds more for nothing.
setTimeout(() => process.exit(code), 100).unref()
