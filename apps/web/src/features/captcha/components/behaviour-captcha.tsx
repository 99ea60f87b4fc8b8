import { LIMITS, type CaptchaType } from '@portal/contracts';
import { Modal } from 'antd';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { SealedAnswer } from '../answer';
import { ClickWord } from './click-word';
import { SliderPuzzle } from './slider-puzzle';
import './behaviour-captcha.css';

export interface BehaviourCaptchaProps {
  captchaType: CaptchaType;
  /** `pop`: a dialog the parent opens and closes; `fixed`: inline in the page. */
  mode: 'pop' | 'fixed';
  /** Pop mode only. */
  open?: boolean;
  /** Wanted image width: 310 (default) or 400 on registration (docs/product/limits.md#captcha); narrower screens get less. */
  width?: number;
  /**
   * A passed check. Pop mode: after its success was shown (docs/product/behaviour.md#captcha: 1 s slider, 1.5 s click-word), and
   * the parent closes the dialog. Fixed mode: at once, and the success stays shown. The
   * verification is good for one business call; to ask again, the parent remounts the widget.
   */
  onSuccess: (answer: SealedAnswer) => void;
  /** Pop mode: the user closed the dialog without passing. */
  onClose?: () => void;
}

/**
 * Fits the image to the space it gets: the wanted width, or the container's if that is less; with
 * `fill` (inline, in a form) the container's, so that it is as wide as the fields around it.
 */
function useFittedWidth(wanted: number, fill: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(wanted);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const fit = () => setWidth(Math.max(200, fill ? el.clientWidth : Math.min(wanted, Math.floor(el.clientWidth))));
    fit();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(fit);
    observer.observe(el);
    return () => observer.disconnect();
  }, [wanted, fill]);
  return { ref, width };
}

function Challenge({
  captchaType,
  width: wanted,
  onSuccess,
  reportAtOnce,
}: Pick<BehaviourCaptchaProps, 'captchaType' | 'width' | 'onSuccess'> & { reportAtOnce: boolean }) {
  // Inline (reporting at once), it fills the form's width; in its dialog it keeps the wanted one.
  const { ref, width } = useFittedWidth(wanted ?? LIMITS.captcha.frameWidth, reportAtOnce);
  return (
    <div ref={ref} className="bc-fit">
      {captchaType === 'clickWord' ? (
        <ClickWord width={width} reportAtOnce={reportAtOnce} onSuccess={onSuccess} />
      ) : (
        <SliderPuzzle width={width} reportAtOnce={reportAtOnce} onSuccess={onSuccess} />
      )}
    </div>
  );
}

/** The behavioural captcha of docs/product/screens.md#captcha-screen, as a dialog or inline. */
export function BehaviourCaptcha({ mode, open = true, onClose, ...challenge }: BehaviourCaptchaProps) {
  const { t } = useTranslation();
  const wanted = challenge.width ?? LIMITS.captcha.frameWidth;
  if (mode === 'fixed') {
    return (
      <div className="bc-fixed">
        <Challenge {...challenge} reportAtOnce />
      </div>
    );
  }
  return (
    <Modal
      open={open}
      title={t('captcha.title')}
      footer={null}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      centered
      width={`min(${wanted + 48}px, calc(100vw - 16px))`}
      className="bc-modal"
    >
      <Challenge {...challenge} reportAtOnce={false} />
    </Modal>
  );
}
