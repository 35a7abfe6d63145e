# pix-sandbox: a local, stateful sandbox of the PIX gateway.
#   docker build -t pix-sandbox . && docker run -p 8080:8080 pix-sandbox

# ---- build: compile TypeScript with the full toolchain ------------------------------------------
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY server ./server
COPY scenarios ./scenarios
RUN npx tsc -p tsconfig.build.json

# ---- runtime: production dependencies only, non-root ---------------------------------------------
FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY fixtures ./fixtures
COPY server/dashboard ./server/dashboard
COPY bin ./bin
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/__sandbox/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/server/main.js"]
