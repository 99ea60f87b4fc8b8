import { LIMITS } from '@portal/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { clickAnswer, type Point } from '../answer';
import { useChallenge, type ChallengeViewProps } from '../use-challenge';
import { CaptchaImage, RefreshButton } from './captcha-image';

/**
 * AJ-Captcha's click-word (docs/product/behaviour.md#captcha): click the asked characters in order; the third click sends the
 * check. Keyboard: arrow keys move a cross-hair (Shift: faster), Enter or Space marks, Backspace
 * takes the last mark back.
 */
export function ClickWord({ width, reportAtOnce = false, onSuccess }: ChallengeViewProps) {
  const { t } = useTranslation();
  const challenge = useChallenge('clickWord', {
    successDelayMs: reportAtOnce ? 0 : LIMITS.captcha.clickCloseMs,
    failureDelayMs: LIMITS.captcha.clickRetryMs,
    onSuccess,
  });
  const { phase, data } = challenge;
  const height = width / 2;
  const [marks, setMarks] = useState<Point[]>([]);
  const [cursor, setCursor] = useState<Point | null>(null);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    setMarks([]);
    setCursor(null);
  }, [data?.token, width]);

  const mark = (p: Point) => {
    if (phase !== 'ready' || marks.length >= LIMITS.captcha.clickCount) return;
    const next = [...marks, p];
    setMarks(next);
    if (next.length === LIMITS.captcha.clickCount) void challenge.submit(clickAnswer(next, width, height));
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (phase !== 'ready') return;
    const at = cursor ?? { x: width / 2, y: height / 2 };
    const step = e.shiftKey ? 20 : 5;
    const moves: Record<string, Point> = {
      ArrowLeft: { x: at.x - step, y: at.y },
      ArrowRight: { x: at.x + step, y: at.y },
      ArrowUp: { x: at.x, y: at.y - step },
      ArrowDown: { x: at.x, y: at.y + step },
    };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      setCursor({ x: Math.max(0, Math.min(width, move.x)), y: Math.max(0, Math.min(height, move.y)) });
    } else if ((e.key === 'Enter' || e.key === ' ') && cursor) {
      e.preventDefault();
      mark(cursor);
    } else if (e.key === 'Backspace' && marks.length > 0) {
      e.preventDefault();
      setMarks(marks.slice(0, -1));
    }
  };

  const words = data?.wordList?.join(',') ?? '';
  const hint = words ? t('captcha.clickHint', { words }) : '';
  // AJ-Captcha's click-word says the result in the bar, where the order was asked.
  const barText = phase === 'success' ? t('captcha.success') : phase === 'failure' ? challenge.message : hint;

  return (
    <div className={`bc-click is-${phase}`} style={{ width }}>
      <CaptchaImage
        ref={box}
        width={width}
        data={data}
        phase={phase}
        message={challenge.message}
        className="bc-click-area"
        tabIndex={phase === 'ready' ? 0 : -1}
        role="application"
        aria-label={`${hint} ${t('captcha.clickKeys')}`}
        onKeyDown={onKeyDown}
        onBlur={() => setCursor(null)}
        onClick={(e) => {
          const r = box.current!.getBoundingClientRect();
          // Scaled by the box's drawn size, so CSS zoom or a narrow screen cannot skew the answer.
          mark({ x: ((e.clientX - r.left) * width) / r.width, y: ((e.clientY - r.top) * height) / r.height });
        }}
      >
        {marks.map((p, i) => (
          <span key={i} className="bc-mark" style={{ left: p.x, top: p.y }} aria-hidden="true">
            {i + 1}
          </span>
        ))}
        {cursor && phase === 'ready' ? (
          <span className="bc-cursor" style={{ left: cursor.x, top: cursor.y }} aria-hidden="true" />
        ) : null}
      </CaptchaImage>
      <div className="bc-bar">
        <span className="bc-bar-text" role="status" aria-live="polite">
          {phase === 'unavailable' || phase === 'loading' ? '' : barText}
        </span>
      </div>
      <RefreshButton phase={phase} onRefresh={() => void challenge.load()} />
    </div>
  );
}
