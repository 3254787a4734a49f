/**
 * Validation while typing: POST /v1/workflows/validate 300 ms after the last keystroke; a newer
 * text aborts the request in flight, so diagnostics always belong to the text on screen.
 */
import { useEffect, useState } from 'preact/hooks';
import { errorMessage } from '../api.js';
import { validateSource } from './api.js';
import type { ValidationResult } from '../../../sdk/generated.js';
import type { Diagnostic } from './diagnostics.js';

export const VALIDATE_DELAY_MS = 300;

export type Validation =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'valid'; steps: number | null; outline?: ValidationResult['outline'] }
  | { state: 'invalid'; diagnostics: Diagnostic[]; outline?: ValidationResult['outline'] }
  | { state: 'error'; message: string };

export function useValidation(auth: string, source: string): Validation {
  const [result, setResult] = useState<Validation>({ state: 'idle' });
  useEffect(() => {
    if (source.trim() === '') {
      setResult({ state: 'idle' });
      return;
    }
    const abort = new AbortController();
    setResult({ state: 'checking' });
    const timer = setTimeout(() => {
      validateSource(auth, source, abort.signal).then(
        (r) => {
          if (abort.signal.aborted) return;
          setResult(
            r.valid
              ? { state: 'valid', steps: r.steps, outline: r.outline }
              : { state: 'invalid', diagnostics: r.diagnostics, outline: r.outline },
          );
        },
        (e: unknown) => {
          if (!abort.signal.aborted) setResult({ state: 'error', message: errorMessage(e) });
        },
      );
    }, VALIDATE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [auth, source]);
  return result;
}
