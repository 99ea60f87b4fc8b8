/**
 * Only in-app paths may be redirect targets: "/x", never "//host", a scheme, or a backslash trick.
 * The one rule for addresses taken from outside: the login page's `redirect` parameter and a
 * menu entry's redirect in the shell.
 */
export function safeRedirect(target: string | null | undefined): string | null {
  if (!target) return null;
  if (!target.startsWith('/') || target.startsWith('//') || target.includes('\\')) return null;
  if (/^\/[^?#]*:/.test(target)) return null;
  return target;
}
