import { useEffect, useState } from 'react';

/**
 * After a success: `start(seconds)` counts down (`left`, for the text) and then leaves for `url`
 * (docs/product/behaviour.md#register-result: 注册成功, then the login after 3 s).
 */
export function useRedirectCountdown(url: string) {
  const [left, setLeft] = useState<number | null>(null);
  useEffect(() => {
    if (left === null) return;
    if (left <= 0) return void window.location.assign(url);
    const timer = setTimeout(() => setLeft((n) => (n ?? 1) - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, url]);
  return { left, start: (seconds: number) => setLeft(seconds) };
}
