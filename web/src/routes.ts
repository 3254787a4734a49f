/**
 * Hash routes of the workspace: `#apps`, `#apps/<app>/<skill>`, `#tasks/<id>`, `#workflows`,
 * `#workflows/<id>`, `#runs`, `#approvals`, `#messages`, `#messages/<chat id>`, `#approve/<token>` (an
 * approval link) and `#sign-in/<code>` (a one-time sign-in link). Parsing is pure so it can be tested without a browser.
 */

/** A parsed location. Unknown hashes become `not_found`; an empty hash is the apps list. */
export type Route =
  | { page: 'apps' }
  | { page: 'skill'; app: string; skill: string }
  | { page: 'task'; taskId: string }
  | { page: 'workflows' }
  | { page: 'workflow'; workflowId: string }
  | { page: 'runs' }
  | { page: 'approvals' }
  | { page: 'messages' }
  | { page: 'chat'; chatId: string }
  | { page: 'approve'; token: string }
  | { page: 'sign_in_link'; code: string }
  | { page: 'not_found' };

const segment = /^[A-Za-z0-9_.-]{1,128}$/;
/** A chat id, as the API's rule: 1-160 letters, digits, `_`, `-`, `.` or `:`. */
const chatId = /^[A-Za-z0-9_.:-]{1,160}$/;
/** An approval link's token: `v1.<key id>.<claims>.<signature>`, base64url parts, at most 1,024 characters. */
const linkToken = /^v1(\.[A-Za-z0-9_-]+){3}$/;
/** A one-time sign-in link's code (the link `npm start` prints, or POST /v1/sessions/sign-in-links). */
const signInCode = /^sic_[A-Za-z0-9_-]{43}$/;

function decode(part: string | undefined, pattern = segment): string | null {
  if (part === undefined) return null;
  try {
    const value = decodeURIComponent(part);
    return pattern.test(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Parses `location.hash` (with or without the leading `#`). A `?…` after the path holds a page's
 * own state (the runs page's filters) and does not change the route.
 */
export function parseRoute(hash: string): Route {
  const path = hash.split('?')[0] ?? '';
  const parts = path.replace(/^#\/?/, '').split('/').filter(Boolean);
  const [head, a, b, ...rest] = parts;
  if (rest.length > 0) return { page: 'not_found' };
  if (head === undefined || (head === 'apps' && a === undefined)) return { page: 'apps' };
  if (head === 'apps' && b !== undefined) {
    const app = decode(a);
    const skill = decode(b);
    return app && skill ? { page: 'skill', app, skill } : { page: 'not_found' };
  }
  if (head === 'tasks' && a !== undefined && b === undefined) {
    const taskId = decode(a);
    return taskId ? { page: 'task', taskId } : { page: 'not_found' };
  }
  if (head === 'workflows' && a === undefined) return { page: 'workflows' };
  if (head === 'approvals' && a === undefined) return { page: 'approvals' };
  if (head === 'runs' && a === undefined) return { page: 'runs' };
  if (head === 'messages' && a === undefined) return { page: 'messages' };
  if (head === 'messages' && b === undefined) {
    const chat = decode(a, chatId);
    return chat ? { page: 'chat', chatId: chat } : { page: 'not_found' };
  }
  if (head === 'sign-in' && a !== undefined && b === undefined)
    return signInCode.test(a) ? { page: 'sign_in_link', code: a } : { page: 'not_found' };
  if (head === 'approve' && a !== undefined && b === undefined)
    return a.length <= 1024 && linkToken.test(a) ? { page: 'approve', token: a } : { page: 'not_found' };
  if (head === 'workflows' && b === undefined) {
    const workflowId = decode(a);
    return workflowId ? { page: 'workflow', workflowId } : { page: 'not_found' };
  }
  return { page: 'not_found' };
}

/** The hash for a skill page. */
export function skillHash(app: string, skill: string): string {
  return `#apps/${encodeURIComponent(app)}/${encodeURIComponent(skill)}`;
}
