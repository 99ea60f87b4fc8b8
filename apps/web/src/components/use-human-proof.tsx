import type { FormInstance } from 'antd';
import { Fragment, useRef, useState, type ReactNode } from 'react';
import { i18n } from '../lib/i18n';
import type { HumanCheck } from '../lib/human-check';
import { ImageCaptchaInput } from './image-captcha-input';

export interface Proof {
  /** The image's answer, or a passed behavioural check's verification. */
  answer: string;
  /** With an image answer: which image (the registration's number, or the login captcha's key). */
  key?: string | undefined;
}

/**
 * The proof of a person that the server asks for (getCaptchaType), for forms that prove it at an
 * action (the SMS button, a registration without SMS, a password change): with the image captcha,
 * `imageInput` is a form control and `prove(answer)` pairs the typed answer with its image; with
 * the behavioural one, `prove()` opens the check (a dialog, even in inline mode: it belongs to the
 * action) and resolves with its verification, or null when it was closed.
 */
export function useHumanProof(check: HumanCheck | undefined, source: 'register' | 'login') {
  const [counter, setCounter] = useState(0);
  const [key, setKey] = useState<string>();
  const [round, setRound] = useState(0);
  const [open, setOpen] = useState(false);
  const settle = useRef<(v: string | null) => void>(undefined);
  const imageMode = check?.kind === 'image';

  const finish = (value: string | null) => {
    setOpen(false);
    settle.current?.(value);
    settle.current = undefined;
  };

  const prove = async (imageAnswer?: string): Promise<Proof | null> => {
    if (imageMode) return { answer: (imageAnswer ?? '').trim(), key };
    const verification = await new Promise<string | null>((resolve) => {
      settle.current = resolve;
      setRound((r) => r + 1);
      setOpen(true);
    });
    return verification ? { answer: verification } : null;
  };

  /**
   * `prove` with the answer typed in `field` of `form`: an empty one is marked on the field (请输入
   * 图形验证码) and gives null. The field has no rule of its own when only an action needs it.
   */
  const proveWith = async (form: FormInstance, field: string): Promise<Proof | null> => {
    if (!imageMode) return prove();
    const answer = String(form.getFieldValue(field) ?? '').trim();
    if (!answer) {
      form.setFields([{ name: field, errors: [i18n.t('forms.imageCaptchaRequired')] }]);
      return null;
    }
    return prove(answer);
  };

  const imageInput = imageMode ? (
    <ImageCaptchaInput source={source} counter={counter} onRefresh={() => setCounter((c) => c + 1)} onKey={setKey} />
  ) : null;

  const dialog: ReactNode =
    check && (check.kind === 'pop' || check.kind === 'inline') && round > 0 ? (
      <Fragment key={round}>
        {check.render({ open, onPassed: (v) => finish(v), onCancel: () => finish(null) })}
      </Fragment>
    ) : null;

  return {
    imageMode,
    /** False until the server said which proof it wants, or when it could not say. */
    ready: check !== undefined && check.kind !== 'unknown',
    prove,
    proveWith,
    /** A new image (after every attempt: an image answer is spent by any check). */
    refresh: () => setCounter((c) => c + 1),
    imageInput,
    dialog,
  };
}
