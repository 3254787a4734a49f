/** Pages of issue 15 not built yet: they say so rather than pretend. */

/** A plain notice naming the page that is still to come. */
export function Pending(props: { title: string }) {
  return (
    <section>
      <h1>{props.title}</h1>
      <p>This page is not built yet (issue 15).</p>
    </section>
  );
}
