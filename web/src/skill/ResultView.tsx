/** A skill's answer: the view for its output's kind, the previews, and a raw JSON toggle. */
import { useState } from 'preact/hooks';
import { groups, resultKind } from './kind.js';
import { PowerView } from './PowerView.js';
import { ArticlesView, DomainsView, GenericView, IconsView } from './views.js';

type Obj = Record<string, unknown>;

interface Props {
  output: unknown;
  previews: unknown;
  /** The whole answer, for the raw JSON toggle. */
  raw: unknown;
  auth: string | null;
  embedId: string | null;
}

function Output(props: Props) {
  const kind = resultKind(props.output);
  const g = groups(props.output);
  switch (kind) {
    case 'domains':
      return <DomainsView groups={g} previews={props.previews} />;
    case 'icons':
      return <IconsView groups={g} />;
    case 'articles':
      return <ArticlesView groups={g} />;
    case 'power':
      return <PowerView groups={g} output={props.output as Obj} auth={props.auth} embedId={props.embedId} />;
    default:
      return <GenericView output={props.output} />;
  }
}

function Previews({ previews }: { previews: unknown }) {
  const items = Array.isArray(previews) ? previews : [];
  if (items.length === 0) return null;
  return (
    <details class="previews">
      <summary>Previews ({items.length})</summary>
      <GenericView output={items} />
    </details>
  );
}

export function ResultView(props: Props) {
  const [raw, setRaw] = useState(false);
  return (
    <section class="results" aria-labelledby="results-title" data-kind={resultKind(props.output)}>
      <h2 id="results-title">Results</h2>
      <Output {...props} />
      <Previews previews={props.previews} />
      <button type="button" class="secondary" aria-pressed={raw} onClick={() => setRaw(!raw)}>
        Raw JSON
      </button>
      {raw ? <pre class="raw-json">{JSON.stringify(props.raw, null, 2)}</pre> : null}
    </section>
  );
}
