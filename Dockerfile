# pix-sandbox: a local, stateful sandbox of the PIX gateway.
#   docker build -t pix-sandbox .
#   docker run -p 8080:8080 pix-sandbox [--flag value ...]        (flags as for npx pix-sandbox)
#   docker run -p 8080:8080 -v pix-data:/data pix-sandbox --data /data/state.json

# ---- prod: the production dependencies ----------------------------------------------------------
FROM node:24-bookworm-slim AS prod
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts

# ---- build: compile with TypeScript and the type packages the sources need, and nothing else ----
# (the full development tree brings test tools and a packaged Chromium the image never needs)
FROM prod AS build
RUN mkdir /toolchain && node -e " \
      const dev = require('/app/package.json').devDependencies; \
      const pick = ['typescript-go', '@types/node', '@types/qrcode']; \
      require('fs').writeFileSync('/toolchain/package.json', JSON.stringify({ private: true, dependencies: Object.fromEntries(pick.map(n => [n, dev[n]])) }))" \
 && npm install --prefix /toolchain --no-audit --no-fund --ignore-scripts \
 && cp -r /toolchain/node_modules/@types node_modules/@types
COPY tsconfig.json tsconfig.build.json ./
COPY server ./server
COPY scenarios ./scenarios
COPY client ./client
RUN node /toolchain/node_modules/typescript-go/lib/tsc.js -p tsconfig.build.json --declaration false

# ---- slim: the production dependencies without what a running server never reads ----------------
FROM prod AS slim
RUN find node_modules -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' \
      -o -name '*.md' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.tsbuildinfo' \) -delete \
 && find node_modules -mindepth 2 -maxdepth 3 -type d \( -name test -o -name tests -o -name docs \
      -o -name .github -o -name example -o -name examples -o -name benchmark -o -name benchmarks \) -prune -exec rm -rf {} +

# ---- runtime: compiled code, production dependencies, non-root, state in /data --------------------
FROM node:24-bookworm-slim
# Set by CI: docker build --build-arg SOURCE=<repository URL> --build-arg REVISION=<commit> .
ARG VERSION=0.1.0
ARG SOURCE=""
ARG REVISION=""
LABEL org.opencontainers.image.title="pix-sandbox" \
      org.opencontainers.image.description="A local, stateful sandbox of an instant-payment (PIX) gateway: tokens, balances, pay-outs, charges, refunds, MED and real webhooks, with a virtual clock and scenario triggers." \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="MIT"
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0 LOG_FORMAT=json
WORKDIR /app
COPY package.json ./
COPY --from=slim /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY fixtures ./fixtures
COPY server/dashboard ./server/dashboard
# --data /data/state.json: the volume belongs to the user the server runs as.
RUN mkdir /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 8080
# Reads the server's own flags and environment, so --port, PORT and TLS are checked where they point.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 CMD ["node", "dist/server/healthcheck.js"]
ENTRYPOINT ["node", "dist/server/main.js"]
