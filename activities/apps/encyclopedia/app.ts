/**
 * The encyclopedia app: article title search and article summaries. See docs/encyclopedia.md.
 */
import { defineApp } from '../../registry/define.js';
import { encyclopediaConfig } from './config.js';
import { encyclopediaRoutes } from './routes.js';
import { searchArticles } from './skills/search-articles.js';
import { getSummary } from './skills/get-summary.js';
import { createEncyclopediaService } from './upstream/service.js';

export const encyclopediaApp = defineApp({
  id: 'encyclopedia',
  config: encyclopediaConfig,
  services: createEncyclopediaService,
  title: 'Encyclopedia',
  description: 'Search article titles and read public article summaries through the service.',
  skills: [searchArticles, getSummary],
  routes: encyclopediaRoutes,
});
