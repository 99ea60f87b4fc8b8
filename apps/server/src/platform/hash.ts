import { createHash } from 'node:crypto';

/** SHA-256 of a text as hex: what is kept of a secret the database must not hold (cookies, tokens). */
export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
