import { ArrowRightOutlined, CheckOutlined, CloseOutlined, LoadingOutlined } from '@ant-design/icons';
import { LIMITS } from '@portal/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { sliderAnswer } from '../answer';
import { useChallenge, type ChallengeViewProps } from '../use-challenge';
import { CaptchaImage, RefreshButton } from './captcha-image';

/** The jigsaw piece's width in the reference frame (the server draws it 47 px wide). */
const PIECE_WIDTH = 47;

/**
 * AJ-Captcha's slider puzzle (docs/product/behaviour.md#captcha): drag the handle (mouse, touch or pen) or move it with the
 * arrow keys and press Enter; the piece follows the handle. Release sends the one check.
 */
export function SliderPuzzle({ width, reportAtOnce = false, onSuccess }: ChallengeViewProps) {
  const { t } = useTranslation();
  const challenge = useChallenge('blockPuzzle', {
    successDelayMs: reportAtOnce ? 0 : LIMITS.captcha.sliderSuccessMs,
    failureDelayMs: LIMITS.captcha.sliderFailureResetMs,
    onSuccess,
  });
  const { phase, data } = challenge;
  const pieceWidth = Math.round((PIECE_WIDTH * width) / LIMITS.captcha.frameWidth);
  const max = width - pieceWidth;
  const [left, setLeft] = useState(0);
  const leftRef = useRef(0);
  const drag = useRef<{ pointerX: number; left: number } | null>(null);
  const startedAt = useRef<number | null>(null);
  const [seconds, setSeconds] = useState('');

  const moveTo = (x: number) => {
    const next = Math.max(0, Math.min(max, x));
    leftRef.current = next;
    setLeft(next);
  };
  const begin = () => {
    startedAt.current ??= performance.now();
  };
  const release = () => {
    drag.current = null;
    if (leftRef.current < 1) return moveTo(0);
    setSeconds(((performance.now() - (startedAt.current ?? performance.now())) / 1000).toFixed(2));
    void challenge.submit(sliderAnswer(leftRef.current, width));
  };

  // Every new challenge starts with the handle at the left.
  useEffect(() => {
    moveTo(0);
    startedAt.current = null;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data?.token, width]);

  const active = phase === 'ready';
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (!active) return;
    const step = e.shiftKey ? 10 : 1;
    const moves: Record<string, number> = {
      ArrowRight: leftRef.current + step,
      ArrowUp: leftRef.current + step,
      ArrowLeft: leftRef.current - step,
      ArrowDown: leftRef.current - step,
      PageUp: leftRef.current + 10,
      PageDown: leftRef.current - 10,
      Home: 0,
      End: max,
    };
    if (e.key in moves) {
      e.preventDefault();
      begin();
      moveTo(moves[e.key]!);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      release();
    }
  };

  const tip =
    phase === 'success'
      ? ({ kind: 'success', text: t('captcha.successIn', { seconds }) } as const)
      : phase === 'failure'
        ? ({ kind: 'failure', text: challenge.message } as const)
        : null;

  return (
    <div className={`bc-slider is-${phase}`} style={{ width }}>
      <CaptchaImage width={width} data={data} phase={phase} message={challenge.message} tip={tip}>
        {data?.jigsawImageBase64 ? (
          <img
            className="bc-piece"
            src={`data:image/png;base64,${data.jigsawImageBase64}`}
            alt=""
            draggable={false}
            style={{ left, width: pieceWidth, height: width / 2 }}
          />
        ) : null}
      </CaptchaImage>
      <div className="bc-bar">
        <div className="bc-bar-fill" style={{ width: left + pieceWidth }} />
        <span className="bc-bar-text" aria-hidden="true">
          {left === 0 && (phase === 'ready' || phase === 'loading') ? t('captcha.sliderHint') : ''}
        </span>
        <div
          role="slider"
          tabIndex={active ? 0 : -1}
          className="bc-handle"
          style={{ left, width: pieceWidth }}
          aria-label={t('captcha.sliderLabel')}
          aria-valuemin={0}
          aria-valuemax={max}
          aria-valuenow={Math.round(left)}
          aria-disabled={!active}
          onKeyDown={onKeyDown}
          onPointerDown={(e) => {
            if (!active || e.button !== 0) return;
            e.currentTarget.setPointerCapture(e.pointerId);
            drag.current = { pointerX: e.clientX, left: leftRef.current };
            begin();
          }}
          onPointerMove={(e) => {
            if (drag.current) moveTo(drag.current.left + e.clientX - drag.current.pointerX);
          }}
          onPointerUp={() => {
            if (drag.current) release();
          }}
          onPointerCancel={() => {
            drag.current = null;
            moveTo(0);
          }}
        >
          {phase === 'success' ? (
            <CheckOutlined />
          ) : phase === 'failure' ? (
            <CloseOutlined />
          ) : phase === 'checking' ? (
            <LoadingOutlined />
          ) : (
            <ArrowRightOutlined />
          )}
        </div>
      </div>
      <RefreshButton phase={phase} onRefresh={() => void challenge.load()} />
    </div>
  );
}
