# One image for every tickertape process; docker-compose.yml picks the entry point per service.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN npm install --global corepack@0.36.0 && corepack enable
COPY . .
RUN pnpm install --frozen-lockfile && pnpm exec turbo run build

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app /app
USER node
CMD ["node", "services/cli/dist/main.js", "--help"]
