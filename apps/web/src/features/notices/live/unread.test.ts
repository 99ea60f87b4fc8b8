import { describe, expect, it } from 'vitest';
import { backoffMs, parseFrames } from './unread';

describe('the event stream reader', () => {
  it('parses whole frames and keeps an incomplete one for the next chunk', () => {
    const first = parseFrames(
      'retry: 3000\nevent: hello\ndata: {"unread":2,"last":7}\n\n: ping\n\nid: 8\nevent: notice\nda',
    );
    expect(first.frames).toEqual([{ event: 'hello', data: '{"unread":2,"last":7}' }]);
    const second = parseFrames(`${first.rest}ta: {"unread":3,"noticeId":"5"}\n\n`);
    expect(second.frames).toEqual([{ id: '8', event: 'notice', data: '{"unread":3,"noticeId":"5"}' }]);
    expect(second.rest).toBe('');
  });

  it('reads CRLF line ends and multi-line data', () => {
    expect(parseFrames('event: x\r\ndata: a\r\ndata: b\r\n\r\n').frames).toEqual([{ event: 'x', data: 'a\nb' }]);
  });

  it('backs off from 1 s, doubling to at most 30 s, with jitter of up to half', () => {
    expect(backoffMs(0, () => 1)).toBe(1000);
    expect(backoffMs(0, () => 0)).toBe(500);
    expect(backoffMs(3, () => 1)).toBe(8000);
    expect(backoffMs(20, () => 1)).toBe(30_000);
    expect(backoffMs(20, () => 0)).toBe(15_000);
  });
});
