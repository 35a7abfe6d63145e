/**
 * A bench script's command line: `--name value` options before `--`, the sandbox's own flags after it.
 */
export function benchArgs (argv: string[] = process.argv): { arg: (name: string, fallback: string) => string, sandboxFlags: string[] } {
  const dashes = argv.indexOf('--')
  const args = argv.slice(2, dashes === -1 ? undefined : dashes)
  return {
    arg: (name, fallback) => {
      const i = args.indexOf(`--${name}`)
      return i === -1 ? fallback : args[i + 1]
    },
    sandboxFlags: dashes === -1 ? [] : argv.slice(dashes + 1),
  }
}
