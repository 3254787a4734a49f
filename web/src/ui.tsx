/** Small pieces every page uses: an error alert, the status of a load, a table head, an empty state. */
import type { ComponentChildren } from 'preact';
import type { Load } from './workflow/use-load.js';

/** An error, announced at once (`role="alert"`); nothing when there is none. */
export function Alert(props: { message: string | null | undefined }) {
  return props.message ? (
    <p role="alert" class="error">
      {props.message}
    </p>
  ) : null;
}

/** "Loading…" while loading, the error when it failed, nothing once ready. */
export function LoadStatus<T>(props: { load: Load<T>; loading: string }) {
  if (props.load.state === 'loading') return <p aria-live="polite">{props.loading}</p>;
  if (props.load.state === 'error') return <Alert message={props.load.message} />;
  return null;
}

/** A table's head row: one column header per name. */
export function HeadRow(props: { columns: string[] }) {
  return (
    <thead>
      <tr>
        {props.columns.map((c) => (
          <th scope="col" key={c}>
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** An empty list: what is missing, and the next step to fill it. */
export function Empty(props: { title: string; children: ComponentChildren }) {
  return (
    <div class="empty">
      <strong>{props.title}</strong>
      <p>{props.children}</p>
    </div>
  );
}
