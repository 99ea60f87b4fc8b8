import { useEffect, useState } from 'react';

/** The park's time (China time, as every figure of the portal), ticking each second. */
export function Clock({ language }: { language: string }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  const zone = { timeZone: 'Asia/Shanghai' } as const;
  const date = new Intl.DateTimeFormat(language, {
    ...zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    weekday: 'short',
  }).format(now);
  const time = new Intl.DateTimeFormat(language, {
    ...zone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(now);
  return (
    <div className="ws-clock">
      <time className="ws-time" dateTime={now.toISOString()}>
        {time}
      </time>
      <span className="ws-date">{date}</span>
    </div>
  );
}
