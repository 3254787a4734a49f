/**
 * The electronics app: power-converter reference designs for electrical requirements, with
 * schematic and parts list. See docs/electronics.md.
 */
import { defineApp } from '../../registry/define.js';
import { electronicsConfig } from './config.js';
import { searchPowerDesigns } from './skills/search-power-designs.js';
import { getPowerDesign } from './skills/get-power-design.js';

export const electronicsApp = defineApp({
  id: 'electronics',
  config: electronicsConfig,
  title: 'Electronics',
  description:
    'Find power-converter reference designs for electrical requirements, with schematic and parts list.',
  skills: [searchPowerDesigns, getPowerDesign],
});
