/** Loads something for a page, again whenever `deps` change; stale answers are dropped. */
import { useEffect, useState } from 'preact/hooks';
import { errorMessage } from '../api.js';

export type Load<T> =
  { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; value: T };

export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Load<T> {
  const [result, setResult] = useState<Load<T>>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    load().then(
      (value) => live && setResult({ state: 'ready', value }),
      (e: unknown) => live && setResult({ state: 'error', message: errorMessage(e) }),
    );
    return () => {
      live = false;
    };
  }, deps);
  return result;
}
