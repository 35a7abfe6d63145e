/**
 * Loaded into the sandbox process by bench/heap-100k.ts (`node --import ./bench/heap-probe.mjs`), never
 * by the sandbox itself: over the IPC channel of the spawn it answers the process's memory figures
 * (`process.memoryUsage`, the V8 heap spaces), collects garbage on request (`--expose-gc`) and writes a
 * heap snapshot, so the bench reads the real process without a control endpoint for it.
 */
import v8 from 'node:v8'

if (process.send) {
  process.on('message', msg => {
    if (msg?.type === 'gc') globalThis.gc?.()
    const reply = { id: msg?.id, memory: process.memoryUsage(), heap: v8.getHeapStatistics(), spaces: v8.getHeapSpaceStatistics() }
    if (msg?.type === 'snapshot') reply.file = v8.writeHeapSnapshot(msg.file)
    process.send(reply)
  })
  // The channel alone must not keep the process up, nor stop it exiting on SIGTERM.
  process.channel?.unref()
}
