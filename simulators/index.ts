/**
 * Upstream stand-ins for dev and tests: real HTTP servers on 127.0.0.1. `npm start` starts the
 * ones whose URL is unset; tests start their own on port 0.
 */
export {
  startShopSimulator,
  type ShopSimulator,
  type ShopSimulatorOptions,
  type ShopRequestRecord,
} from './shop/server.js';
export type { FaultRule as ShopFaultRule } from './shop/faults.js';
export {
  startProxy,
  type ProxySimulator,
  type ProxyOptions,
  type ProxyLogEntry,
} from './proxy/proxy-server.js';
export {
  startDecisionSimulator,
  type DecisionSimulator,
  type DecisionSimulatorOptions,
  type DecisionFault,
} from './decision/server.js';
export { startDevSimulators, DEV_DECISION_KEY, type DevSimulators, type SimulatorUrls } from './dev.js';
export {
  startEncyclopediaSimulator,
  type EncyclopediaSimulator,
  type EncyclopediaFault,
  type EncyclopediaRequestRecord,
} from './encyclopedia/server.js';
export {
  startPowerSimulator,
  type PowerSimulator,
  type PowerSimulatorOptions,
  type PowerFault,
  type PowerRequestRecord,
} from './power/server.js';
