import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { inAppLink, WIDGET_PROPS } from './page-builder.js';

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
