/**
 * What modules outside this folder may use of the electronics app besides its definition
 * (`app.ts`): its upstream service (the metrics test counts its cache) and the relevance rubric
 * (the relevance test checks what is asked). Modules outside this folder import only this file
 * and `app.ts` (a lint rule in eslint.config.js).
 */
export { createPowerService } from './upstream/service.js';
export { POWER_DESIGN_RUBRIC } from './skills/relevance.js';
