# Multi-stage build: compile server and web once, ship only production dependencies and dist/.
# Node 24 LTS, the runtime CI tests on (.ci/run); npm pinned to the version CI uses, whose `allowScripts`
# (package.json) runs only the install scripts the product needs (argon2's build when its prebuilt does
# not load, @swc/core's and msgpackr-extract's binary checks) and refuses the rest (telemetry included).
FROM node:24-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
RUN npm install -g npm@11.19.1 --no-audit --no-fund
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/cli/package.json apps/cli/
COPY apps/worker/package.json apps/worker/
COPY apps/web/package.json apps/web/
COPY libs/billing/package.json libs/billing/
COPY libs/contracts/package.json libs/contracts/
COPY libs/csv-engine/package.json libs/csv-engine/
COPY libs/domain/package.json libs/domain/
COPY libs/db/package.json libs/db/
COPY libs/queue/package.json libs/queue/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/scripts ./scripts
USER node
EXPOSE 3000
CMD ["node", "dist/apps/api/src/main.js"]
