import { readdirSync, readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { fileURLToPath } from 'node:url'
import { loadConfig, type Config } from './config.js'

/**
 * The image's HEALTHCHECK (`node dist/server/healthcheck.js`): asks the running server's own health
 * route on the port and protocol that server really uses. Docker runs the check with the container's
 * environment but not its arguments, so the server's flags are read from its command line in /proc
 * (PID 1, or the process under an init such as `docker run --init`) and go through the same
 * loadConfig as main.ts: `--port 9000`, `PORT=9000` and `--tls-cert` all check the right address.
 */

/** The server's own arguments: what follows main.js on the first command line that runs it. */
export function serverArgs (commandLines: string[][]): string[] | undefined {
  for (const argv of commandLines) {
    const i = argv.findIndex(arg => /(^|\/)(dist\/)?server\/main\.[jt]s$/.test(arg))
    if (i !== -1) return argv.slice(i + 1)
  }
  return undefined
}

/** Where the server answers from inside its own container: a wildcard address is reached on loopback. */
export function healthUrl (config: Pick<Config, 'host' | 'port' | 'tlsCert'>): string {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
  return `${config.tlsCert ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${config.port}/__sandbox/health`
}

/** Whether the health route answers 200 within the timeout (the server's certificate is its own: not verified). */
export function healthy (url: string, timeoutMs: number): Promise<boolean> {
  return new Promise(resolve => {
    const request = url.startsWith('https:') ? httpsRequest : httpRequest
    const req = request(url, { timeout: timeoutMs, rejectUnauthorized: false }, res => {
      res.resume()
      resolve(res.statusCode === 200)
    })
    req.on('timeout', () => req.destroy())
    req.on('error', () => resolve(false))
    req.end()
  })
}

/** Every process's command line, lowest PID first. */
export function commandLines (): string[][] {
  const pids = readdirSync('/proc').filter(name => /^\d+$/.test(name)).sort((a, b) => Number(a) - Number(b))
  return pids.map(pid => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
    } catch {
      return [] // gone meanwhile, or not ours to read
    }
  })
}

/* c8 ignore start: the check's process itself, run by Docker; test/unit/healthcheck.test.ts covers its parts */
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let url: string
  try {
    url = healthUrl(loadConfig(process.env, serverArgs(commandLines()) ?? []))
  } catch (err) {
    process.stderr.write(`healthcheck: ${(err as Error).message}\n`)
    process.exit(1)
  }
  healthy(url, 2500).then(ok => process.exit(ok ? 0 : 1), () => process.exit(1))
}
/* c8 ignore stop */
