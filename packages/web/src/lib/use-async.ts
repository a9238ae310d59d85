import { useCallback, useState } from 'preact/hooks';
import { ApiError } from '../api/client';

/** The state of one API call a view makes on demand. */
export interface AsyncState<T> {
  data: T | null;
  error: ApiError | null;
  busy: boolean;
}

export function useAsync<T, A extends unknown[]>(fn: (...args: A) => Promise<T>): [AsyncState<T>, (...args: A) => Promise<T | null>, (data: T | null) => void] {
  const [state, setState] = useState<AsyncState<T>>({ data: null, error: null, busy: false });
  const run = useCallback(
    async (...args: A): Promise<T | null> => {
      setState((s) => ({ ...s, busy: true, error: null }));
      try {
        const data = await fn(...args);
        setState({ data, error: null, busy: false });
        return data;
      } catch (e) {
        const error = e instanceof ApiError ? e : new ApiError(0, 'CLIENT', e instanceof Error ? e.message : String(e));
        setState((s) => ({ ...s, error, busy: false }));
        return null;
      }
    },
    [fn],
  );
  const set = useCallback((data: T | null) => setState({ data, error: null, busy: false }), []);
  return [state, run, set];
}
