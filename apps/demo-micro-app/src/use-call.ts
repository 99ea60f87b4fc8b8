import type { MicroEnvelope } from '@portal/contracts';
import { useCallback, useEffect, useState } from 'react';

export type Loaded<T> = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'done'; data: T };

/** Loads with the host's client whenever `key` changes; `reload` loads again. */
export function useCall<T>(load: () => Promise<MicroEnvelope<T>>, key: string): [Loaded<T>, () => void] {
  const [result, setResult] = useState<Loaded<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  // `load` is a new function each render; `key` says when what it loads changed.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const stable = useCallback(load, [key]);
  useEffect(() => {
    let current = true;
    stable().then(
      (res) => {
        if (!current) return;
        setResult(res.status === 200 ? { state: 'done', data: res.data } : { state: 'failed', message: res.message });
      },
      (err: unknown) => current && setResult({ state: 'failed', message: String(err) }),
    );
    return () => {
      current = false;
    };
  }, [stable, round]);
  return [result, () => setRound((r) => r + 1)];
}
