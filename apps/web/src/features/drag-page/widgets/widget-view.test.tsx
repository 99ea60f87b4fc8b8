/**
 * A drag page's frames and images as the view renders them (ADR 036): a frame of the portal's own
 * origin runs without its rights, as the shell's frames do; an image is fetched only from an
 * upload, an embedded picture or an http(s) address of another origin, never from a path of the
 * portal whose request could act (`/cas/logout`).
 */
import type { Widget } from '@portal/contracts';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../../../lib/session';
import '../messages';
import { WidgetView } from './widget-view';

const own = window.location.origin;
const place = { id: 'w', x: 0, y: 0, w: 6, h: 3 };
const frame = (url: string): Widget => ({ ...place, kind: 'iframe', props: { url } });
const image = (src: string): Widget => ({ ...place, kind: 'image', props: { src, alt: { zh: '图' }, fit: 'cover' } });
const show = (widget: Widget) =>
  render(
    <MemoryRouter>
      <WidgetView widget={widget} />
    </MemoryRouter>,
  ).container;

beforeEach(() => {
  useSession.setState({
    microApps: [
      { code: 'self-hosted', name: '本站', entry: `${own}/micro/other/`, serviceType: 1 },
      { code: 'park-hall', name: '园区大厅', entry: 'https://park.example.com/', serviceType: 1 },
    ],
  });
});
afterEach(() => useSession.setState({ microApps: null }));

describe('a drag page frame', () => {
  it("gets its own origin's rights only when it is not the portal's", () => {
    const theirs = show(frame('https://park.example.com/policy')).querySelector('iframe')!;
    expect(theirs.getAttribute('sandbox')!.split(' ')).toContain('allow-same-origin');
    const ours = show(frame(`${own}/micro/other/page`)).querySelector('iframe')!;
    expect(ours.getAttribute('sandbox')!.split(' ')).not.toContain('allow-same-origin');
    expect(ours.getAttribute('sandbox')).toBe(theirs.getAttribute('sandbox')!.replace(' allow-same-origin', ''));
  });
});

describe('a drag page image', () => {
  it('is fetched from an upload, an embedded picture or another origin', () => {
    for (const src of [
      'data:image/png;base64,iVBORw0KGgo=',
      '/api/resources/logos/0f0e0d0c-0b0a-4908-8706-050403020100',
      'https://park.example.com/banner.png',
    ]) {
      expect(show(image(src)).querySelector('img')?.getAttribute('src'), src).toBe(src);
    }
  });

  it("is never fetched from a path of the portal, or from the portal's own origin", () => {
    for (const src of ['/cas/logout', '/api/front/member/logout', `${own}/cas/logout`, 'javascript:alert(1)']) {
      const shown = show(image(src));
      expect(shown.querySelector('img'), src).toBeNull();
      expect(shown.textContent).toContain('该图片的地址不可用');
    }
  });
});
