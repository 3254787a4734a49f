/**
 * The electronics app: power-converter reference designs for electrical requirements, with
 * schematic and parts list. See docs/electronics.md.
 */
import { defineApp } from '../../registry/define.js';
import { searchPowerDesigns } from './skills/search-power-designs.js';
import { getPowerDesign } from './skills/get-power-design.js';

export const electronicsApp = defineApp({
  id: 'electronics',
  title: 'Electronics',
  description:
    'Find power-converter reference designs for electrical requirements, with schematic and parts list.',
  skills: [searchPowerDesigns, getPowerDesign],
});
