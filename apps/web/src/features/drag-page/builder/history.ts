/** Undo and redo over whole documents: each change a step, at most `limit` kept. */
export interface History<T> {
  past: T[];
  present: T;
  future: T[];
}

export const historyOf = <T>(present: T): History<T> => ({ past: [], present, future: [] });

/** `next` as the present; the same history when it is the present already (nothing changed). */
export function commit<T>(h: History<T>, next: T, limit = 100): History<T> {
  if (next === h.present) return h;
  return { past: [...h.past, h.present].slice(-limit), present: next, future: [] };
}

export function undo<T>(h: History<T>): History<T> {
  if (h.past.length === 0) return h;
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1]!, future: [h.present, ...h.future] };
}

export function redo<T>(h: History<T>): History<T> {
  if (h.future.length === 0) return h;
  return { past: [...h.past, h.present], present: h.future[0]!, future: h.future.slice(1) };
}
