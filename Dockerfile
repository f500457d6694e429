# The kwok controller image: ghcr.io/kwokts/kwok:v<package.json version>, the image the container
# runtimes (docker, podman, nerdctl) run as the kwok-controller component and the kind runtime
# deploys into its cluster. Build it from a built checkout (`npm install && npm run build`):
#   docker build -t ghcr.io/kwokts/kwok:v0.1.0 .
# Where node:20-slim cannot be pulled, `kwokts artifacts build controller-image` builds this file
# on a base made from the machine's own node (BASE_IMAGE; it must have node, npm and /bin/sh).
ARG BASE_IMAGE=node:20-slim
FROM ${BASE_IMAGE}
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only; no lifecycle scripts (the build already happened outside).
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY bin/ bin/
COPY dist/ dist/
COPY templates/ templates/
# The same entry the binary runtime runs with the host's node, with the same Node options
# (CONTROLLER_NODE_OPTIONS in src/components/kwok-controller.ts); arguments are kwok's flags.
ENTRYPOINT ["node", "--max-semi-space-size=64", "/app/dist/src/kwok/main.js"]
