/**
 * The name a mistyped one most likely meant ("did you mean ...?"): of a flag, a scenario, a command.
 * Pure, so the server, the scenario catalogue and the command line suggest alike.
 */

/** Edit distance between two short words, a swap of two neighbours counting as one edit (`prot`, `port`). */
export function distance (a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => i === 0 ? j : j === 0 ? i : 0))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1)
    }
  }
  return d[a.length][b.length]
}

/** Longer than anything a person types as a name: its distance is not worth computing. */
const LONGEST = 64

/**
 * The known name closest to `given`, when it is close enough to be a slip: at most one edit in three
 * letters of the name (one for a short name). `score` may rate some slips as closer (a prefix).
 */
export function closest (given: string, known: Iterable<string>, score: (given: string, name: string) => number = distance): string | undefined {
  if (given.length > LONGEST) return undefined
  let best: { name: string, score: number } | undefined
  for (const name of known) {
    const s = score(given, name)
    if (s <= Math.max(1, Math.floor(name.length / 3)) && (!best || s < best.score)) best = { name, score: s }
  }
  return best?.name
}
