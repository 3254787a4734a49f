/**
 * `#approve/<token>`: an approval link, for an approver without an API key. It shows what the
 * approval asks (title, payload fields, expiry) and decides it once; no key is sent, even when
 * one is saved. A link that is altered or expired, or an approval already decided, shows the
 * API's message instead of the form.
 */
import { useState } from 'preact/hooks';
import { dateTime } from '../task/timing.js';
import { LoadStatus } from '../ui.js';
import { ApprovalForm, type Decision } from '../workflow/ApprovalForm.js';
import { decideApprovalLink, viewApprovalLink } from '../workflow/api.js';
import { useLoad } from '../workflow/use-load.js';

export function ApprovalLinkPage(props: { token: string }) {
  const [decided, setDecided] = useState<Decision | null>(null);
  const view = useLoad(() => viewApprovalLink(props.token), [props.token]);
  return (
    <section aria-labelledby="approve-title">
      <h1 id="approve-title">Approval</h1>
      {decided ? (
        <p role="status" class="success">
          {decided === 'approved' ? 'Approved' : 'Rejected'}. The run goes on; this link is now used up.
        </p>
      ) : (
        <>
          <LoadStatus load={view} loading="Loading the approval…" />
          {view.state === 'ready' ? (
            <div class="approval">
              <ApprovalForm
                id="link"
                title={view.value.title}
                specs={view.value.payload}
                send={(decision, payload) => decideApprovalLink(props.token, decision, payload)}
                onDecided={setDecided}
              >
                Expires {dateTime(view.value.expires_at)}. This link decides once.
              </ApprovalForm>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
