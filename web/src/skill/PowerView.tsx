/** Power designs: a table per request (rank, part, topology, cost, efficiency, …) and the schematic. */
import { EmbedImage } from './embeds.js';
import { area, hertz, percent, usd } from './format.js';
import { TableScroll } from './views.js';

type Obj = Record<string, unknown>;
const list = (v: unknown): Obj[] =>
  Array.isArray(v) ? v.filter((x): x is Obj => typeof x === 'object' && x !== null) : [];
const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '—');

export function PowerView(props: {
  groups: Obj[];
  output: Obj;
  auth: string | null;
  embedId: string | null;
}) {
  const top = props.output.top_schematic as Obj | null | undefined;
  return (
    <>
      {props.groups.map((g, i) => (
        <section key={i} class="result-group">
          <TableScroll label={`Power designs for request ${i + 1}`}>
            <table class="power">
              <caption>
                Request {i + 1}: {list(g.solutions).length} designs
              </caption>
              <thead>
                <tr>
                  {[
                    'Rank',
                    'Part',
                    'Topology',
                    'BOM cost',
                    'Efficiency',
                    'Footprint',
                    'Frequency',
                    'Temperature',
                  ].map((h) => (
                    <th key={h} scope="col">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {list(g.solutions).map((s) => (
                  <tr key={text(s.id)}>
                    <td>{text(s.rank)}</td>
                    <th scope="row">{text(s.part_number)}</th>
                    <td>{text(s.topology)}</td>
                    <td>{usd(s.bom_cost_usd)}</td>
                    <td>{percent(s.efficiency)}</td>
                    <td>{area(s.footprint_mm2)}</td>
                    <td>{hertz(s.frequency_hz)}</td>
                    <td>{typeof s.temperature_c === 'number' ? `${s.temperature_c} °C` : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </section>
      ))}
      {top && props.auth && props.embedId ? (
        <figure class="schematic-figure">
          <EmbedImage auth={props.auth} embedId={props.embedId} alt={`Schematic: ${text(top.title)}`} />
          <figcaption>
            {text(top.title)}. {typeof top.note === 'string' ? top.note : ''}
          </figcaption>
        </figure>
      ) : null}
      {typeof props.output.note === 'string' ? <p class="hint">{props.output.note}</p> : null}
    </>
  );
}
