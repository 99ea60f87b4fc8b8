/**
 * A drag page's frames and images as the view renders them (ADR 036): a frame of the portal's own
 * origin runs without its rights, as the shell's frames do; an image is fetched only from an
 * upload, an embedded picture or an http(s) address of another origin, never from a path of the
 * portal whose request could act (`/cas/logout`).
 */
import type { Widget } from '@portal/contracts';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

describe('a drag page link', () => {
  it('goes to its path with the fragment kept (a saved `/park/news#top` no longer throws)', () => {
    const shown = render(
      <MemoryRouter initialEntries={['/ops?tc=demo']}>
        <WidgetView
          widget={{ ...place, kind: 'links', props: { items: [{ title: { zh: '资讯' }, path: '/park/news#top' }] } }}
        />
      </MemoryRouter>,
    ).container;
    expect(shown.querySelector('a')?.getAttribute('href')).toBe('/park/news?tc=demo#top');
  });
});

describe('a widget that fails', () => {
  it('shows a small box in the reader’s language, and the widgets beside it still show', () => {
    const silenced = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // A table row that is not a list makes the table throw while it renders.
      const broken = { ...place, kind: 'table', props: { columns: [{ zh: '列' }], rows: [null] } } as unknown as Widget;
      const shown = render(
        <MemoryRouter>
          <WidgetView widget={broken} />
          <WidgetView widget={{ ...place, kind: 'text', props: { text: { zh: '旁边的文本' } } }} />
        </MemoryRouter>,
      ).container;
      expect(shown.querySelector('[role="alert"]')?.textContent).toBe('此组件无法显示');
      expect(shown.textContent).toContain('旁边的文本');
    } finally {
      silenced.mockRestore();
    }
  });
});
