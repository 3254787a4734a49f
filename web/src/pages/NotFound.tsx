/** Any hash the router does not know. */
export function NotFound() {
  return (
    <section aria-labelledby="not-found-title">
      <h1 id="not-found-title">Not found</h1>
      <p>
        There is no page at this address. Go to the <a href="#apps">apps</a> or the{' '}
        <a href="#workflows">workflows</a>.
      </p>
    </section>
  );
}
