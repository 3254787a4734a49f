/**
 * For the Python SDK's parity test (sdk/python/tests/test_parity.py): calls one skill through
 * the JavaScript SDK, as `client.app(<app>).<camelCaseSkill>(input)`, and prints the answer as
 * JSON. Usage: `node --import tsx test/helpers/js-sdk-call.ts <app> <skill> <input-json>` with
 * SKILLFLOW_URL and SKILLFLOW_API_KEY set.
 */
import { camelCase } from '../../sdk/codegen/generate.js';
import { createClient } from '../../sdk/index.js';

const [appId, skillId, input] = process.argv.slice(2);
if (!appId || !skillId || !input) throw new Error('usage: js-sdk-call.ts <app> <skill> <input-json>');
const client = createClient({
  baseUrl: process.env.SKILLFLOW_URL ?? '',
  token: process.env.SKILLFLOW_API_KEY,
});
const call = client.app(appId)[camelCase(skillId)];
if (!call) throw new Error('no such skill method');
process.stdout.write(
  JSON.stringify(await call(JSON.parse(input) as { requests: Record<string, unknown>[] })),
);
