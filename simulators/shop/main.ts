/**
 * CLI entry: `tsx simulators/shop/main.ts [port]` (or SHOP_SIM_PORT). Runs the shop simulator
 * until interrupted. A dev tool, so it prints its address to stdout.
 */
import { startShopSimulator } from './server.js';

const port = Number(process.argv[2] ?? process.env.SHOP_SIM_PORT ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`Invalid port: ${process.argv[2] ?? process.env.SHOP_SIM_PORT}`);
  process.exit(2);
}
const sim = await startShopSimulator({ port, host: process.env.SHOP_SIM_HOST ?? '127.0.0.1' });
console.log(`shop simulator listening on ${sim.url} (admin: ${sim.url}/__sim/requests)`);
const stop = () => void sim.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
