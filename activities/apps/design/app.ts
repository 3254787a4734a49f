/**
 * The design app: icon search over public icon collections, with sanitised SVGs served by the
 * service. See docs/design-icons.md.
 */
import { defineApp } from '../../registry/define.js';
import { designConfig } from './config.js';
import { designRoutes } from './routes.js';
import { searchIcons } from './skills/search-icons/index.js';

export const designApp = defineApp({
  id: 'design',
  config: designConfig,
  title: 'Design',
  description: 'Find icons you are allowed to use, and get sanitised SVGs for them.',
  skills: [searchIcons],
  routes: designRoutes,
});
