/** Result views by kind: domains table, icon grid, article cards and the generic view. */
import type { ComponentChildren } from 'preact';
import { domainRows } from './domains.js';
import { HeadRow } from '../ui.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A wide table scrolls inside this labelled, focusable wrapper, never the page. */
export function TableScroll(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label={props.label}>
      {props.children}
    </div>
  );
}

function Warnings({ group }: { group: Obj }) {
  const warnings = list(group.warnings);
  return warnings.length ? (
    <ul class="warnings">
      {warnings.map((w, i) => (
        <li key={i}>{text(w.message) || text(w.code)}</li>
      ))}
    </ul>
  ) : null;
}

/** One table per request: name, availability and the API's price line. */
export function DomainsView({ groups, previews }: { groups: Obj[]; previews: unknown }) {
  const rows = domainRows(groups, previews);
  return (
    <>
      {groups.map((g, i) => (
        <section key={i} class="result-group">
          <TableScroll label={`Domains for request ${i + 1}`}>
            <table class="domains">
              <caption>
                Request {i + 1}: {text(g.searched_query) || text(g.query)}
                {text(g.currency) ? ` (${text(g.currency)}, tax country ${text(g.country)})` : ''}
              </caption>
              <HeadRow columns={['Domain', 'Availability', 'Price']} />
              <tbody>
                {(rows[i] ?? []).map((r) => (
                  <tr key={r.domain} class={`availability-${r.status}`}>
                    <th scope="row">{r.domain}</th>
                    <td class="availability">
                      {r.availability}
                      {r.premium ? ' (premium)' : ''}
                    </td>
                    <td class="price">{r.price}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          {rows[i]?.length ? null : <p>No names found.</p>}
          <Warnings group={g} />
          {isObj(g.error) ? <p class="error">{text(g.error.message)}</p> : null}
        </section>
      ))}
    </>
  );
}

/** Icons as `<img>` from the sanitised SVG route: the SVG never enters the DOM as markup. */
export function IconsView({ groups, onImageError }: { groups: Obj[]; onImageError?: () => void }) {
  return (
    <>
      {groups.map((g, i) => (
        <section key={i} class="result-group">
          <h3>
            Request {i + 1}: {list(g.results).length} icons
          </h3>
          <ul class="icon-grid">
            {list(g.results).map((icon) => (
              <li key={text(icon.id)} class="icon" data-icon={text(icon.id)}>
                <img
                  src={text(icon.svg_url)}
                  alt={text(icon.display_name) || text(icon.name)}
                  width={48}
                  height={48}
                  loading="lazy"
                  onError={(e) => {
                    e.currentTarget.classList.add('broken');
                    onImageError?.();
                  }}
                />
                <span class="icon-name">{text(icon.name)}</span>
                <span class="icon-meta">
                  {text(icon.collection)}
                  {isObj(icon.license) ? ` · ${text(icon.license.spdx) || text(icon.license.title)}` : ''}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}

/** Articles as cards: title link, description or extract, thumbnail through the image proxy. */
export function ArticlesView({ groups }: { groups: Obj[] }) {
  return (
    <>
      {groups.map((g, i) => {
        const articles = Array.isArray(g.results) ? list(g.results) : [g];
        return (
          <section key={i} class="result-group">
            <h3>
              Request {i + 1}: {articles.length} article{articles.length === 1 ? '' : 's'}
            </h3>
            <ul class="cards">
              {articles.map((a) => {
                const thumb = isObj(a.thumbnail) ? text(a.thumbnail.url) : '';
                return (
                  <li key={text(a.url)} class="card">
                    {thumb.startsWith('/v1/encyclopedia/thumbnail') ? (
                      <img src={thumb} alt="" class="thumb" />
                    ) : null}
                    <h4>
                      <a href={text(a.url)} rel="noopener noreferrer" target="_blank">
                        {text(a.title)}
                      </a>
                    </h4>
                    {text(a.description) ? <p class="description">{text(a.description)}</p> : null}
                    {text(a.extract) ? <p>{text(a.extract)}</p> : null}
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </>
  );
}

function Value({ value, depth }: { value: unknown; depth: number }): preact.JSX.Element {
  if (Array.isArray(value))
    return value.length === 0 ? (
      <span class="empty">(none)</span>
    ) : (
      <ol class="generic-list">
        {(value as unknown[]).map((v, i) => (
          <li key={i}>
            <Value value={v} depth={depth + 1} />
          </li>
        ))}
      </ol>
    );
  if (isObj(value))
    return depth > 6 ? (
      <code>{JSON.stringify(value)}</code>
    ) : (
      <dl class="generic">
        {Object.entries(value).map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>
              <Value value={v} depth={depth + 1} />
            </dd>
          </div>
        ))}
      </dl>
    );
  return <span>{typeof value === 'string' ? value : (JSON.stringify(value) ?? '')}</span>;
}

/** Any other output: keys, values and lists as escaped text. */
export function GenericView({ output }: { output: unknown }) {
  return <Value value={output} depth={0} />;
}
