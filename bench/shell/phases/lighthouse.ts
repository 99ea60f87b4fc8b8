/**
 * f: Lighthouse (mobile profile) on the login page.
 */
import { freePort } from '../../../apps/server/src/db/embedded.js';
import { launch } from '../../../e2e/support/browser.js';
import { round } from '../../common.js';

export interface LighthouseRun {
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
}

/**
 * Lighthouse's mobile profile (its default: a phone screen, slow 4G and a 4× slower CPU, simulated)
 * on the login page, `runs` times; the run with the median performance score is reported. Chromium
 * is started by playwright with a debugging port that Lighthouse drives.
 */
export async function measureLighthouse(
  base: string,
  runs: number,
): Promise<{ runs: LighthouseRun[]; median: LighthouseRun }> {
  const { default: lighthouse } = await import('lighthouse');
  const port = await freePort();
  const browser = await launch([`--remote-debugging-port=${port}`]);
  try {
    const out: LighthouseRun[] = [];
    for (let i = 0; i < runs; i++) {
      const result = await lighthouse(`${base}/center/login`, {
        port,
        onlyCategories: ['performance', 'accessibility'],
        output: 'json',
        logLevel: 'error',
      });
      const lhr = result!.lhr;
      const audit = (id: string) => round(lhr.audits[id]?.numericValue ?? NaN, 1);
      out.push({
        performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
        fcpMs: audit('first-contentful-paint'),
        lcpMs: audit('largest-contentful-paint'),
        tbtMs: audit('total-blocking-time'),
        cls: round(lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN, 3),
        speedIndexMs: audit('speed-index'),
      });
    }
    const sorted = [...out].sort((a, b) => a.performance - b.performance);
    return { runs: out, median: sorted[Math.floor(sorted.length / 2)]! };
  } finally {
    await browser.close();
  }
}
