/** A refused save: the 422 `INVALID_DEFINITION` diagnostics, or the message of any other error. */
import { ApiError, errorMessage } from '../api.js';
import type { Diagnostic } from './diagnostics.js';

export function saveFailure(e: unknown): { diagnostics: Diagnostic[] | null; message: string } {
  const diagnostics =
    e instanceof ApiError && Array.isArray(e.details.diagnostics) ? e.details.diagnostics : null;
  return { diagnostics: diagnostics as Diagnostic[] | null, message: errorMessage(e) };
}
