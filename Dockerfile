# skillflow API and worker image (one image, two commands). TypeScript runs through tsx; the
# build steps are the CLI's JavaScript build and the web workspace's static bundle (Vite, a devDependency), made in its own
# stage so the runtime image keeps production dependencies only.
FROM node:20-bookworm-slim AS web
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY web ./web
COPY sdk/generated.ts sdk/types.ts ./sdk/
COPY definitions/examples/domain-ideas.yaml ./definitions/examples/
COPY scripts/build-web.mjs ./scripts/
RUN node scripts/build-web.mjs --force

FROM node:20-bookworm-slim

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/var/lib/skillflow

WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error \
 && npm cache clean --force
COPY . .
COPY --from=web /app/web/dist ./web/dist
# The CLI's JavaScript build (esbuild, a production dependency), made while /app is writable.
RUN node scripts/build-cli.mjs \
 && mkdir -p /var/lib/skillflow && chown node:node /var/lib/skillflow
USER node

EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s \
  CMD node -e "fetch('http://127.0.0.1:8080/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--import", "tsx", "scripts/main.ts"]
