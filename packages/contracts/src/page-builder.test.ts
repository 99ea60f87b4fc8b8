import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import type { Dashboard } from './dashboard.js';
import { inAppLink, measureValue, PAGE_MEASURES, WIDGET_PROPS } from './page-builder.js';

const links = (path: string) => ({ items: [{ title: { zh: '资讯' }, path }] });

describe('a drag page link (an address inside the portal)', () => {
  it('may carry a query and a fragment', () => {
    for (const path of ['/park/news', '/park/news#top', '/park/news?tab=2', '/park/news?tab=2#top']) {
      expect(Value.Check(WIDGET_PROPS.links, links(path)), path).toBe(true);
    }
  });

  it('never leaves the portal', () => {
    for (const path of ['//evil.example/x', 'https://evil.example/', 'javascript:alert(1)', '#top', '/a b']) {
      expect(Value.Check(WIDGET_PROPS.links, links(path)), path).toBe(false);
    }
  });

  it('goes to the path, keeps the fragment, and adds its query to the viewer’s', () => {
    expect(inAppLink('/park/news#top', '?tc=demo')).toEqual({
      pathname: '/park/news',
      search: '?tc=demo',
      hash: '#top',
    });
    expect(inAppLink('/park/news?tab=2#top', '?tc=demo&tab=1')).toEqual({
      pathname: '/park/news',
      search: '?tc=demo&tab=2',
      hash: '#top',
    });
    expect(inAppLink('/park/news', '')).toEqual({ pathname: '/park/news', search: '', hash: '' });
    expect(inAppLink('/park/news#', '')).toEqual({ pathname: '/park/news', search: '', hash: '' });
    expect(inAppLink('/#a#b', '')).toEqual({ pathname: '/', search: '', hash: '#a#b' });
  });

  it('never gives the router a path holding ? or #', () => {
    for (const path of ['/a?b#c', '/a#b?c', '/?#', '/a??b##c']) {
      const { pathname } = inAppLink(path);
      expect(pathname, path).not.toMatch(/[?#]/);
    }
  });
});

describe('a figure bound to a measure', () => {
  const item = (extra: object) => ({ items: [{ label: { zh: '入驻企业' }, value: '', ...extra }] });

  it('names one of the measures the server computes, or none', () => {
    for (const measure of PAGE_MEASURES) expect(Value.Check(WIDGET_PROPS.stats, item({ measure })), measure).toBe(true);
    expect(Value.Check(WIDGET_PROPS.stats, item({}))).toBe(true);
    expect(Value.Check(WIDGET_PROPS.stats, item({ measure: 'revenue' }))).toBe(false);
  });

  it("reads each from the park's dashboard", () => {
    const d = {
      enterprises: { total: 4, registeredThisMonth: 2, byIndustry: [], byRegion: [] },
      devices: { total: 8, online: 6, byType: [] },
      alerts: { open: 3, bySeverity: [] },
    } as unknown as Dashboard;
    expect(PAGE_MEASURES.map((m) => measureValue(d, m))).toEqual([4, 2, 8, 6, 3]);
  });
});
