/**
 * A guest run's price, asked before it runs (POST …/quote): what it costs, how much of today's
 * free allowance is left, and a button that runs it; or, when it cannot run now, why and when
 * to try again.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { GuestQuote } from '../api.js';
import { REASONS } from './FreeUsage.js';

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

function refusal(q: GuestQuote): string {
  const base =
    q.reason === 'provider_busy'
      ? 'The service this skill uses is busy right now.'
      : (REASONS[q.reason as keyof typeof REASONS] ?? 'This run cannot start now.');
  return q.retry_after_seconds !== null ? `${base} Try again in ${q.retry_after_seconds} s.` : base;
}

export function GuestQuotePanel(props: { quote: GuestQuote; onRun: () => void; onCancel: () => void }) {
  const { quote } = props;
  const left = quote.free_usage.daily_remaining_percent;
  const section = useRef<HTMLElement>(null);
  // The price appears below the form: bring it into view, with focus on its first button.
  useEffect(() => {
    section.current?.scrollIntoView({ block: 'center' });
    section.current?.querySelector('button')?.focus({ preventScroll: true });
  }, [quote]);
  return (
    <section class="guest-quote" aria-labelledby="guest-quote-title" ref={section}>
      <h2 id="guest-quote-title">Before you run</h2>
      <p data-testid="guest-quote-price">
        This run costs {credits(quote.credits)} of your free allowance.
        {left !== null ? ` ${left} % of today's allowance is left.` : ''}
      </p>
      {quote.can_run ? (
        <p class="actions">
          <button type="button" class="primary" onClick={props.onRun}>
            Run for {credits(quote.credits)}
          </button>{' '}
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        </p>
      ) : (
        <p role="alert" class="error">
          {refusal(quote)}
        </p>
      )}
    </section>
  );
}
