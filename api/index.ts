/** Entry module of the HTTP API: the app builder, its dependencies and its services. */
export { buildApp, API_VERSION, type App } from './app.js';
export type { ApiDeps } from './deps.js';
export { createServices, type Services } from './services/index.js';
