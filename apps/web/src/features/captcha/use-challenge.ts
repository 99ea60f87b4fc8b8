/**
 * One behavioural captcha challenge's life (docs/product/behaviour.md#captcha): load, one check, then success (shown for a
 * moment, then reported) or failure (shown for a moment, then a new challenge). A refusal to hand
 * out a challenge (6201 and the like) clears the images and waits for the user's refresh.
 */
import { CaptchaRepCode, type CaptchaData, type CaptchaType } from '@portal/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { sealAnswer, type Point, type SealedAnswer } from './answer';
import { checkAnswer, fetchChallenge } from './api/behaviour-captcha';

export type Phase = 'loading' | 'ready' | 'checking' | 'success' | 'failure' | 'unavailable';

export interface ChallengeState {
  phase: Phase;
  data: CaptchaData | null;
  /** What the bar says after a check or a refused load. */
  message: string;
}

/** What the slider and click-word views take. */
export interface ChallengeViewProps {
  /** Rendered width in px; the height is half of it. */
  width: number;
  /** Pop-up: report after the success was shown (docs/product/behaviour.md#captcha); inline: at once, the success stays shown. */
  reportAtOnce?: boolean;
  onSuccess: (answer: SealedAnswer) => void;
}

export interface ChallengeOptions {
  successDelayMs: number;
  failureDelayMs: number;
  onSuccess: (answer: SealedAnswer) => void;
}

export function useChallenge(captchaType: CaptchaType, options: ChallengeOptions) {
  const { t: translate } = useTranslation();
  // Read at the time of use: a language switch must not start a new challenge or drop an answer.
  const tRef = useRef(translate);
  tRef.current = translate;
  const t = useCallback((key: string) => tRef.current(key), []);
  const [state, setState] = useState<ChallengeState>({ phase: 'loading', data: null, message: '' });
  const latest = useRef(options);
  latest.current = options;
  // Answers that arrive after a newer load (or after unmount) are dropped.
  const generation = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const later = (ms: number, run: () => void) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(run, ms);
  };

  const load = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    const mine = ++generation.current;
    setState((s) => ({ phase: 'loading', data: s.phase === 'unavailable' ? null : s.data, message: '' }));
    try {
      const res = await fetchChallenge(captchaType);
      if (mine !== generation.current) return;
      if (res.repCode === CaptchaRepCode.SUCCESS && res.repData?.token) {
        setState({ phase: 'ready', data: res.repData, message: '' });
      } else {
        setState({ phase: 'unavailable', data: null, message: res.repMsg ?? t('captcha.loadFailed') });
      }
    } catch {
      if (mine === generation.current) setState({ phase: 'unavailable', data: null, message: t('captcha.loadFailed') });
    }
  }, [captchaType, t]);

  useEffect(() => {
    void load();
    const [gen, pending] = [generation, timer];
    return () => {
      gen.current++;
      if (pending.current) clearTimeout(pending.current);
    };
  }, [load]);

  const submit = useCallback(
    async (answer: Point | Point[]) => {
      const data = state.data;
      if (state.phase !== 'ready' || !data?.token) return;
      const mine = generation.current;
      const sealed = sealAnswer(data.token, answer, data.secretKey);
      setState((s) => ({ ...s, phase: 'checking' }));
      let code: string = CaptchaRepCode.ERROR;
      let repMsg: string | null = null;
      try {
        const res = await checkAnswer(captchaType, data.token, sealed.pointJson);
        code = res.repCode;
        repMsg = res.repMsg;
      } catch {
        repMsg = t('captcha.checkFailed');
      }
      if (mine !== generation.current) return;
      if (code === CaptchaRepCode.SUCCESS) {
        setState((s) => ({ ...s, phase: 'success', message: '' }));
        later(latest.current.successDelayMs, () => latest.current.onSuccess(sealed));
      } else {
        // docs/product/behaviour.md#captcha: 验证失败 for a wrong answer; an expired token or a limit says what it is.
        const message = code === CaptchaRepCode.FAILED || !repMsg ? t('captcha.failed') : repMsg;
        setState((s) => ({ ...s, phase: 'failure', message }));
        later(latest.current.failureDelayMs, () => void load());
      }
    },
    [captchaType, load, state, t],
  );

  return { ...state, load, submit };
}
