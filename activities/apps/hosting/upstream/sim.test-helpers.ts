/**
 * Test setup shared by the shop client tests: one shop simulator on port 0 and a direct
 * client for the file, with the simulator's log and rules reset before each test.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { staticSecrets } from '../../../../lib/secrets.js';
import { startShopSimulator, type ShopSimulator } from '../../../../simulators/shop/server.js';
import { createShopClient, type ShopClient } from './index.js';
import { POLICY_PROFILES } from '../../../policy.js';

const SEARCH_DEADLINES = POLICY_PROFILES['upstream-search'].deadlines;

export interface ShopTestContext {
  sim: ShopSimulator;
  shop: ShopClient;
}

/** Registers the hooks; read `ctx.sim` and `ctx.shop` inside tests only. */
export function useShopSimulator(): ShopTestContext {
  const ctx = {} as ShopTestContext;
  beforeAll(async () => {
    ctx.sim = await startShopSimulator();
    ctx.shop = createShopClient({
      idleTimeoutMs: SEARCH_DEADLINES.idleTimeoutMs,
      shopUrl: ctx.sim.url,
      secrets: staticSecrets({}),
    });
  });
  afterAll(async () => {
    await ctx.shop.close();
    await ctx.sim.close();
  });
  beforeEach(() => ctx.sim.reset());
  return ctx;
}
