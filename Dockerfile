# One image for every tickertape process; docker-compose.yml picks the entry point per service
# (node services/<name>/dist/main.js, cwd /app). The runtime stage holds exactly what
# scripts/bundle.sh produces: the built services and their production dependencies, nothing
# else (CI builds the same bundle and starts the services from it, see
# services/cli/test/integration/production-bundle.test.ts).
FROM node:20-bookworm-slim AS build
WORKDIR /src
ENV TURBO_TELEMETRY_DISABLED=1
# pnpm from the npm registry (npm checks the tarball against the registry's integrity hash) at
# the version package.json's "packageManager" pins, the one place it is written; never through
# corepack, whose signature check fails on a cold cache.
COPY package.json ./
RUN npm install --global --no-fund --no-audit --loglevel=error \
      "pnpm@$(node -p 'require("./package.json").packageManager.replace(/^pnpm@/, "")')"
# Downloads depend on the lockfile and workspace settings alone: this layer survives source
# changes.
# patches/: the fixes pnpm applies to dependencies at install (pnpm-workspace.yaml).
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
COPY patches ./patches
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline && bash scripts/bundle.sh /bundle

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
# Owned by root, run as the image's unprivileged `node` user: the code cannot be rewritten.
COPY --from=build /bundle /app
USER node
# GET /health on HTTP_PORT with node (bookworm-slim has no curl); compose sets HTTP_PORT per
# service. The CLI has no server: compose turns the check off for its one-shot run.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "/app/scripts/health-probe.mjs"]
CMD ["node", "services/cli/dist/main.js", "--help"]
