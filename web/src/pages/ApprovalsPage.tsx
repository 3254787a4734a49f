/**
 * `#approvals`: the approvals your runs wait for, each with its title, run, expiry and a form for
 * the payload its step declares; Approve or Reject sends the decision, and the list reloads.
 */
import { useState } from 'preact/hooks';
import type { ApprovalList } from '../../../sdk/generated.js';
import { dateTime } from '../task/timing.js';
import { Empty, LoadStatus } from '../ui.js';
import { ApprovalForm } from '../workflow/ApprovalForm.js';
import { decideApproval, listApprovals } from '../workflow/api.js';
import { useLoad } from '../workflow/use-load.js';

type Pending = ApprovalList['approvals'][number];

function ApprovalCard(props: { auth: string; approval: Pending; onDecided: (text: string) => void }) {
  const { approval } = props;
  const key = `${approval.run_id}-${approval.step_id}`;
  return (
    <li class="approval" data-approval={key}>
      <ApprovalForm
        id={key}
        title={approval.title}
        specs={approval.payload}
        send={(decision, payload) =>
          decideApproval(props.auth, approval.run_id, approval.step_id, decision, payload)
        }
        onDecided={(decision) =>
          props.onDecided(`${decision === 'approved' ? 'Approved' : 'Rejected'}: ${approval.title}`)
        }
      >
        Run <a href={`#tasks/${encodeURIComponent(approval.run_id)}`}>{approval.run_id}</a>, step{' '}
        {approval.step_id}; expires {dateTime(approval.expires_at)}.
      </ApprovalForm>
    </li>
  );
}

export function ApprovalsPage(props: { auth: string }) {
  const [round, setRound] = useState(0);
  const [done, setDone] = useState<string | null>(null);
  // Decided here: hidden even if the reloaded list still shows them (visibility follows shortly).
  const [decided, setDecided] = useState<ReadonlySet<string>>(new Set());
  const list = useLoad(() => listApprovals(props.auth), [props.auth, round]);
  const keyOf = (a: Pending) => `${a.run_id}-${a.step_id}`;
  const shown = list.state === 'ready' ? list.value.approvals.filter((a) => !decided.has(keyOf(a))) : [];
  return (
    <section aria-labelledby="approvals-title">
      <h1 id="approvals-title">Approvals</h1>
      {done ? (
        <p role="status" class="success">
          {done}
        </p>
      ) : null}
      <LoadStatus load={list} loading="Loading approvals…" />
      {list.state === 'ready' && shown.length === 0 ? (
        <Empty title="No run is waiting for your decision.">
          When a run reaches an approval step, it appears here.
        </Empty>
      ) : null}
      {shown.length > 0 ? (
        <ul class="approvals">
          {shown.map((a) => (
            <ApprovalCard
              key={keyOf(a)}
              auth={props.auth}
              approval={a}
              onDecided={(text) => {
                setDone(text);
                setDecided((d) => new Set([...d, keyOf(a)]));
                setRound((r) => r + 1);
              }}
            />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
