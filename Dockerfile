# skillflow API and worker image (one image, two commands). TypeScript runs through tsx; there
# is no separate build step to drift from what the tests ran.
FROM node:20-bookworm-slim

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/var/lib/skillflow

WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-save --omit=dev --no-audit --no-fund --loglevel=error \
 && npm cache clean --force
COPY . .
RUN mkdir -p /var/lib/skillflow && chown node:node /var/lib/skillflow
USER node

EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s \
  CMD node -e "fetch('http://127.0.0.1:8080/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--import", "tsx", "scripts/main.ts"]
