/**
 * The constraint a failed statement violated, read from PostgreSQL's error (Drizzle wraps the
 * driver's error in `cause`): where a constraint decides (a name taken, a room booked), the
 * repository turns its violation into an answer and lets every other error through.
 */
export function violatedConstraint(err: unknown): string | null {
  const e = (err as { cause?: unknown })?.cause ?? err;
  const { code, constraint } = (e ?? {}) as { code?: string; constraint?: string };
  // Class 23: integrity constraint violations (unique, exclusion, check, foreign key).
  return typeof code === 'string' && code.startsWith('23') && constraint ? constraint : null;
}
