/** A guest's free allowance (GET /v1/anonymous/free-usage/status), refreshed after each run. */
import type { FreeUsageStatus } from '../../../sdk/generated.js';
import { freeUsageStatus } from '../api.js';
import { LoadStatus } from '../ui.js';
import { useLoad } from '../workflow/use-load.js';

export const REASONS: Record<FreeUsageStatus['reason'], string> = {
  available: 'You can run free skills now.',
  daily_limit_reached: 'Your free allowance for today is used up.',
  weekly_limit_reached: 'Your free allowance for this week is used up.',
  monthly_limit_reached: 'Your free allowance for this month is used up.',
  shared_daily_limit_reached: 'The free allowance shared by all guests is used up for today.',
  shared_weekly_limit_reached: 'The free allowance shared by all guests is used up for this week.',
  shared_monthly_limit_reached: 'The free allowance shared by all guests is used up for this month.',
};

export function FreeUsage(props: { refresh: number }) {
  const status = useLoad(freeUsageStatus, [props.refresh]);
  return (
    <section class="free-usage" aria-labelledby="free-usage-title">
      <h2 id="free-usage-title">Free usage</h2>
      <LoadStatus load={status} loading="Checking your free allowance…" />
      {status.state === 'ready' ? (
        <p aria-live="polite" data-percent={status.value.daily_remaining_percent ?? ''}>
          {status.value.daily_remaining_percent !== null
            ? `${status.value.daily_remaining_percent} % of today's free allowance left. `
            : ''}
          {REASONS[status.value.reason]}
        </p>
      ) : null}
    </section>
  );
}
