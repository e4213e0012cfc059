# The shortlinks image: `docker compose up` (compose.yaml), or `docker build -t shortlinks .`.
# BASE_IMAGE: the official Node 24 LTS image, or any Debian image laid out like it (Node in /usr/local with its
# headers, a `node` user); the container test builds on such a stand-in assembled locally.
ARG BASE_IMAGE=node:24-bookworm-slim

# Production dependencies. better-sqlite3 is compiled from source against the base's own Node headers, so building
# needs only the npm registry and Debian's mirrors: no prebuilt binary from GitHub, no headers from nodejs.org.
FROM ${BASE_IMAGE} AS deps
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the package's own `prepare` (a build) cannot run before the sources are here; better-sqlite3's
# install script, the one the service needs, runs in the rebuild.
# Then only the compiled module stays, not the objects and SQLite's sources it was made from (26 MB).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && npm_config_nodedir=/usr/local npm_config_build_from_source=true npm rebuild better-sqlite3 \
  && find node_modules/better-sqlite3/build -type f ! -name better_sqlite3.node -delete \
  && rm -rf node_modules/better-sqlite3/deps

# The compiled JavaScript, made with the dev dependencies (TypeScript, types), which stay in this stage. A change
# to the sources alone reuses both stages' dependency layers.
FROM ${BASE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY src src
RUN npx tsc -p tsconfig.json && chmod +x dist/src/cli/main.js

FROM ${BASE_IMAGE}
WORKDIR /app
COPY package.json ./
COPY data/favicon.ico data/favicon.svg data/shorteners.txt data/
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/dist/src dist/src
# `shortlinks` on the PATH for the operator CLI (`docker compose exec shortlinks shortlinks person add ...`); /data
# owned by the user the service runs as, so a new volume mounted there is writable by it.
RUN ln -s /app/dist/src/cli/main.js /usr/local/bin/shortlinks \
  && mkdir /data && chown node:node /data
USER node
ENV NODE_ENV=production PORT=3000 DATABASE_PATH=/data/shortlinks.db
VOLUME /data
EXPOSE 3000
# Node's own fetch: the slim image has no curl. 127.0.0.1 works as long as HOST is left unset (every interface).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form: node is PID 1 and gets SIGTERM itself, closing the database cleanly on `docker stop`.
CMD ["node", "dist/src/main.js"]
