# Campus Ops Console: build stage compiles the server (esbuild) and the web app (vite); the runtime
# stage holds production dependencies, the compiled server, its migrations and the built web app,
# and runs as the unprivileged `node` user. See docs/operations.md.
#
#   docker build -t campus-ops .
#   docker run -p 8080:8080 -v campus-data:/data -e ADMIN_INITIAL_PASSWORD=... -e ADMIN_INITIAL_PHONE=... campus-ops
#   docker run ... -e DATABASE_URL=postgres://... campus-ops            # on PostgreSQL
#   docker run --rm -e DATABASE_URL=postgres://... campus-ops node apps/server/dist/migrate.js

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Manifests first: the dependency layer is rebuilt only when they change.
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    SEED_DEMO=0
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
# Only the server's production dependencies (the contract is bundled into dist/): no tsx, no
# TypeScript, no vite, no test tools.
RUN npm ci --omit=dev --workspace apps/server --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/server/drizzle apps/server/drizzle
COPY --from=build /app/apps/web/dist apps/web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# Liveness only: readiness (/readyz) is for the load balancer, which must not restart an instance
# because the shared database is briefly away.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]
