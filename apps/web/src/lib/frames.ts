/**
 * The one sandbox of every frame the portal shows: a menu entry's page, a detail tab's page, a drag
 * page's embedded page (ADR 036). The page runs, posts its forms, opens pop-ups and downloads, but
 * never navigates the portal away. Only a page of another origin keeps its own origin's rights (its
 * cookies, its storage): a page of the portal's own origin with them could reach into the portal,
 * read the session and lift its own sandbox, so it runs as an opaque origin.
 */
const BASE = 'allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads';

export function frameSandbox(src: string, portalOrigin: string = window.location.origin): string {
  const own = !URL.canParse(src) || new URL(src, portalOrigin).origin === portalOrigin;
  return own ? BASE : `${BASE} allow-same-origin`;
}
