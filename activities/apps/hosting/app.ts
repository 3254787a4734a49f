/**
 * The hosting app: domain name search with availability and price quotes. See
 * docs/domain-search.md.
 */
import { defineApp } from '../../registry/define.js';
import { hostingConfig } from './config.js';
import { searchDomains } from './skills/search-domains/index.js';

export const hostingApp = defineApp({
  id: 'hosting',
  config: hostingConfig,
  title: 'Hosting',
  description: 'Find domain names and check their availability and price quotes.',
  skills: [searchDomains],
});
