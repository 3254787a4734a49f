/** A scheduled definition: its state, and pause, resume and trigger. */
import { useState } from 'preact/hooks';
import type { ScheduleState } from '../../../sdk/generated.js';
import { errorMessage } from '../api.js';
import { clock } from '../task/timing.js';
import { scheduleAction } from './api.js';

interface Props {
  auth: string;
  workflowId: string;
  schedule: ScheduleState;
  onTriggered: () => void;
}

export function ScheduleControls(props: Props) {
  const [schedule, setSchedule] = useState(props.schedule);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ error: boolean; text: string } | null>(null);
  const act = (action: 'pause' | 'resume' | 'trigger') => {
    setBusy(true);
    setOutcome(null);
    scheduleAction(props.auth, props.workflowId, action).then(
      (state) => {
        setBusy(false);
        setSchedule(state);
        const done = { pause: 'Paused.', resume: 'Resumed.', trigger: 'Triggered: a run started.' };
        setOutcome({ error: false, text: done[action] });
        if (action === 'trigger') props.onTriggered();
      },
      (e: unknown) => {
        setBusy(false);
        setOutcome({ error: true, text: errorMessage(e) });
      },
    );
  };
  return (
    <section aria-labelledby="schedule-title">
      <h2 id="schedule-title">Schedule</h2>
      <p class="schedule-state">
        {schedule.paused ? 'Paused' : 'Active'}
        {schedule.timezone ? ` · ${schedule.timezone}` : ''}
        {!schedule.paused && schedule.next_runs[0] ? ` · next run ${clock(schedule.next_runs[0])}` : ''}
      </p>
      <div class="buttons">
        {schedule.paused ? (
          <button type="button" disabled={busy} onClick={() => act('resume')}>
            Resume
          </button>
        ) : (
          <button type="button" disabled={busy} onClick={() => act('pause')}>
            Pause
          </button>
        )}
        <button type="button" disabled={busy} onClick={() => act('trigger')}>
          Trigger now
        </button>
      </div>
      {outcome ? (
        <p role={outcome.error ? 'alert' : undefined} aria-live="polite" class={outcome.error ? 'error' : ''}>
          {outcome.text}
        </p>
      ) : null}
    </section>
  );
}
