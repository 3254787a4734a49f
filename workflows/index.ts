/** Entry module for the worker's workflow bundle: every workflow type skillflow runs. */
export { runSkillCall } from './skill-call.js';
export { runDefinition, progressQuery } from './run-definition.js';
export { runLoopBatch } from './loop-batch.js';
export { runGate } from './flow-gate.js';
