import type { ReactNode } from 'react';

/** What a behavioural check needs from the form: it hands back its proof, or is closed. */
export interface HumanCheckSlot {
  open: boolean;
  onPassed: (captchaVerification: string) => void;
  onCancel: () => void;
}

/**
 * How the form proves a person (the server's getCaptchaType): the image captcha field; a
 * behavioural check in a dialog that opens when the filled form is sent (`pop`); or one inline in
 * the form, to pass before sending (`inline`).
 */
export type HumanCheck =
  | { kind: 'image' }
  | { kind: 'pop' | 'inline'; render: (slot: HumanCheckSlot) => ReactNode }
  /** The server could not say which: the form cannot be sent until it can. */
  | { kind: 'unknown'; retry: () => void };
