#!/usr/bin/env bash
# The smoke command of a container check: run against the image built with buildah as
# pix-sandbox:check and started with `--data /data/state.json` (and `--port $PORT` for another port).
# It checks that a write through the API lands in the data file on the /data volume, that the
# image's HEALTHCHECK, run inside the container, finds the server on the port it really listens on,
# and that no development tooling ships in the image.
set -euo pipefail
base=http://127.0.0.1:${PORT:-8080}

created=$(curl -fsS -XPOST "$base/__sandbox/accounts" -H 'content-type: application/json' -d '{"name":"SMOKE PERSISTS"}')
client=$(node -pe 'JSON.parse(process.argv[1]).clientId' "$created")

container=$(buildah containers --format '{{.ContainerName}} {{.ImageName}}' | awk '$2 ~ /pix-sandbox:check$/ { print $1 }' | tail -1)
id=$(buildah inspect --format '{{.ContainerID}}' "$container")
# /data is a volume: buildah keeps it beside the container, not in its root file system.
files=$(ls /var/lib/containers/storage/overlay-containers/"$id"/userdata/buildah-volumes/*/state.json* 2>/dev/null || true)
if [ -z "$files" ] || ! grep -lq "$client" $files; then
  echo "container-smoke: FAIL: account $client is not in /data/state.json (files: ${files:-none})" >&2
  exit 1
fi
echo "container-smoke: account $client persisted in $(echo "$files" | head -1 | sed 's#.*/buildah-volumes/[^/]*/#/data/#')"

buildah run --isolation chroot --network host "$container" -- node dist/server/healthcheck.js
echo "container-smoke: HEALTHCHECK healthy on port ${PORT:-8080}"

root=$(buildah mount "$container")
for dev in tsx esbuild @esbuild typescript tap @sparticuz playwright-core; do
  if [ -e "$root/app/node_modules/$dev" ]; then
    echo "container-smoke: FAIL: $dev is in the image's node_modules" >&2
    exit 1
  fi
done
echo "container-smoke: no development tooling in the image ($(du -sh "$root/app/node_modules" | cut -f1) of node_modules)"
