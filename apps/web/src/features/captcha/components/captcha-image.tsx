import { LoadingOutlined, ReloadOutlined } from '@ant-design/icons';
import type { CaptchaData } from '@portal/contracts';
import type { ReactNode, Ref } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { Phase } from '../use-challenge';

export interface CaptchaImageProps extends Omit<React.HTMLAttributes<HTMLDivElement>, 'children'> {
  width: number;
  data: CaptchaData | null;
  phase: Phase;
  /** Why there is no challenge (6201 and the like), shown in place of the images. */
  message: string;
  /** The result of the check, over the bottom of the image. */
  tip?: { kind: 'success' | 'failure'; text: string } | null;
  children?: ReactNode;
  ref?: Ref<HTMLDivElement>;
}

/** The challenge's background image with its overlays and the result. */
export function CaptchaImage({
  width,
  data,
  phase,
  message,
  tip,
  children,
  className,
  ref,
  ...rest
}: CaptchaImageProps) {
  const { t } = useTranslation();
  return (
    <div ref={ref} className={`bc-image ${className ?? ''}`} style={{ width, height: width / 2 }} {...rest}>
      {data?.originalImageBase64 ? (
        <img
          className="bc-background"
          src={`data:image/png;base64,${data.originalImageBase64}`}
          alt=""
          draggable={false}
          width={width}
          height={width / 2}
        />
      ) : null}
      {children}
      {phase === 'loading' && !data ? (
        <div className="bc-overlay" role="status">
          <LoadingOutlined /> {t('captcha.loading')}
        </div>
      ) : null}
      {phase === 'unavailable' ? (
        <div className="bc-overlay bc-unavailable" role="alert">
          {message}
        </div>
      ) : null}
      <div className={`bc-tip${tip ? ` is-${tip.kind}` : ''}`} role="status" aria-live="polite">
        {tip?.text ?? ''}
      </div>
    </div>
  );
}

/** Below the bar, so that it never hides a character or the hole. */
export function RefreshButton({ phase, onRefresh }: { phase: Phase; onRefresh: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="bc-actions">
      <button
        type="button"
        className="bc-refresh"
        onClick={onRefresh}
        disabled={phase === 'checking' || phase === 'success'}
      >
        <ReloadOutlined spin={phase === 'loading'} /> {t('captcha.refresh')}
      </button>
    </div>
  );
}
