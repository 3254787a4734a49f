/**
 * A webhook signing secret the API just showed (the save that made the hook), carried from the
 * page that saved to the definition's page. Kept in memory only, taken once: it is never stored
 * in the browser, and a reload does not show it again, just as the API never does.
 */
const fresh = new Map<string, string>();

export function rememberSecret(workflowId: string, secret: string): void {
  fresh.set(workflowId, secret);
}

export function takeSecret(workflowId: string): string | undefined {
  const secret = fresh.get(workflowId);
  fresh.delete(workflowId);
  return secret;
}
