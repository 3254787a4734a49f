/**
 * The actions a step may hold, exactly one each: the compiler checks steps against this list and
 * the workspace editor suggests from it (a plain constant, so the browser bundle can import it).
 */
export const STEP_ACTIONS = [
  'use_app_skill',
  'send_chat_message',
  'decide',
  'wait',
  'fail',
  'for_each',
  'parallel',
  'use_workflow',
  'wait_for_approval',
  'wait_for_event',
] as const;
