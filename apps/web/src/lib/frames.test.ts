import { describe, expect, it } from 'vitest';
import { frameSandbox } from './frames';

describe('frameSandbox', () => {
  const portal = 'https://portal.example.com';

  it("gives a page of another origin its own origin's rights", () => {
    expect(frameSandbox('https://park.example.com/x', portal).split(' ')).toContain('allow-same-origin');
  });

  it("never gives them to a page of the portal's own origin, however the address is written", () => {
    for (const src of [
      'https://portal.example.com/center/x',
      'https://PORTAL.example.com:443/y',
      '/center/x',
      'nonsense',
    ]) {
      const sandbox = frameSandbox(src, portal).split(' ');
      expect(sandbox, src).not.toContain('allow-same-origin');
      expect(sandbox).toContain('allow-scripts');
    }
  });

  it('never lets a frame navigate the portal away', () => {
    expect(frameSandbox('https://park.example.com/', portal)).not.toMatch(/allow-top-navigation/);
  });
});
