# syntax=docker/dockerfile:1
# Question-Play: the compiled service (dist/main.js) or an engine worker
# (dist/worker.js), as a non-root user. `docker compose up` (compose.yaml)
# runs it beside PostgreSQL and an S3-compatible store; docs/operations.md.

# 1. Compile: TypeScript to dist/ (esbuild) with the dev dependencies.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci applies patches/ to the dependencies (patch-package, the postinstall script).
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. Production dependencies only.
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci applies patches/ to the dependencies (patch-package, the postinstall script).
COPY patches ./patches
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 3. What runs: the build, its dependencies, and the files it reads (the contract, the migrations, the UI's stylesheet).
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production \
    APP_ENV=main \
    HOST=0.0.0.0 \
    PORT=8000 \
    LOG_FORMAT=json \
    DEMO_DATA=false
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
COPY --chown=node:node generated ./generated
COPY --chown=node:node drizzle ./drizzle
COPY --chown=node:node src/admin/ui/admin.css ./src/admin/ui/admin.css
USER node
EXPOSE 8000
# Liveness: the process serves. Readiness (/readyz) is for the load balancer and compose's depends_on.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--enable-source-maps", "dist/main.js"]
