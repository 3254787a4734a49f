/** Hover help in the YAML editor: a skill name shows its title, description and request fields. */
import { hoverTooltip, type Tooltip } from '@codemirror/view';
import { skillAt } from './completion-context.js';
import { catalogueDetails, requestFields } from './skill-catalogue.js';

function element(tag: string, className: string, text?: string): HTMLElement {
  const el = document.createElement(tag);
  el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

export const skillHover = hoverTooltip(async (view, pos): Promise<Tooltip | null> => {
  const skill = skillAt(view.state.doc.toString(), pos);
  if (!skill) return null;
  const details = await catalogueDetails(skill.name).catch(() => null);
  if (!details) return null;
  return {
    pos: skill.from,
    end: skill.to,
    above: true,
    create: () => {
      const dom = element('div', 'sf-skill-help');
      dom.append(element('strong', 'sf-skill-title', details.title));
      dom.append(element('p', 'sf-skill-description', details.description));
      const fields = requestFields(details.request_item_schema);
      if (fields.length > 0) {
        dom.append(element('p', 'sf-skill-fields-title', 'Request fields:'));
        const list = element('ul', 'sf-skill-fields');
        for (const f of fields) {
          const item = element('li', '');
          item.append(element('code', '', f.name), ` ${f.type}${f.required ? ', required' : ''}`);
          list.append(item);
        }
        dom.append(list);
      }
      return { dom };
    },
  };
});
