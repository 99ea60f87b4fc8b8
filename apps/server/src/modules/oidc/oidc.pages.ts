/**
 * The pages the OpenID Provider shows a person (an error, the logout question, the device code
 * pages, the consent question): the server's own small pages in the sign-on server's look, in
 * Chinese or English, every value escaped. The provider's forms are markup it builds itself from
 * its own values (hidden fields), passed through as they are.
 */
import { escapeMarkup, plainPage } from '../../platform/html.js';
import { t, type Lang } from '../../platform/i18n.js';

/**
 * The language of a page: the first of `ui_locales` (OpenID Connect's request parameter) that is
 * Chinese or English, else the first of Accept-Language by preference, else Chinese.
 */
export function pageLang(uiLocales: unknown, acceptLanguage: string | undefined): Lang {
  const pick = (tag: string): Lang | null => {
    const low = tag.trim().toLowerCase();
    if (low.startsWith('en')) return 'en';
    if (low.startsWith('zh')) return 'zh';
    return null;
  };
  if (typeof uiLocales === 'string') {
    for (const tag of uiLocales.split(' ')) {
      const lang = pick(tag);
      if (lang) return lang;
    }
  }
  const ranked = (acceptLanguage ?? '')
    .slice(0, 512)
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q), i };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranked) {
    const lang = pick(tag);
    if (lang) return lang;
  }
  return 'zh';
}

const TITLE = (lang: Lang) => t(lang, 'ssoPageTitle');
/** A submit button of `form`; `attrs` is markup of the caller's (constants only). */
const button = (form: string, text: string, attrs = '', primary = true) =>
  `<button type="submit" form="${form}"${attrs} style="margin:8px 8px 0 0;padding:8px 20px;border-radius:6px;border:1px solid #0958d9;background:${primary ? '#0958d9;color:#fff' : '#fff;color:#0958d9'};font-size:15px;cursor:pointer">${escapeMarkup(text)}</button>`;

/** An error the provider answers with a page (a bad request that cannot go back to the client). */
export function errorPage(lang: Lang, out: { error?: unknown; error_description?: unknown }): string {
  const code = typeof out.error === 'string' ? out.error : 'server_error';
  const detail =
    lang === 'en' && typeof out.error_description === 'string'
      ? `<p class="note">${escapeMarkup(out.error_description)}</p>`
      : '';
  return plainPage(
    lang,
    TITLE(lang),
    `<p>${escapeMarkup(t(lang, 'oidcFailed'))}</p>${detail}<p class="note">${escapeMarkup(t(lang, 'oidcErrorCode', { code }))}</p>`,
  );
}

/** Too many attempts from one address (the device code entry): try again later. */
export function tooManyPage(lang: Lang): string {
  return plainPage(lang, TITLE(lang), `<p>${escapeMarkup(t(lang, 'tooManyRequests'))}</p>`);
}

/** RP-initiated logout: the question, with the provider's form (its hidden fields). */
export function logoutPage(lang: Lang, form: string): string {
  return plainPage(
    lang,
    TITLE(lang),
    `<p>${escapeMarkup(t(lang, 'oidcLogoutAsk'))}</p>${form}${button('op.logoutForm', t(lang, 'oidcLogoutYes'), ' name="logout" value="yes" autofocus')}${button('op.logoutForm', t(lang, 'oidcLogoutNo'), '', false)}`,
  );
}

export function loggedOutPage(lang: Lang): string {
  return plainPage(lang, TITLE(lang), `<p>${escapeMarkup(t(lang, 'ssoLoggedOut'))}</p>`);
}

/** The device flow's code entry; `problem` names what went wrong with the last attempt. */
export function deviceInputPage(lang: Lang, form: string, problem: 'wrong' | 'aborted' | 'failed' | null): string {
  const key =
    problem === 'wrong'
      ? 'oidcDeviceWrong'
      : problem === 'aborted'
        ? 'oidcDeviceAborted'
        : problem === 'failed'
          ? 'oidcDeviceFailed'
          : 'oidcDeviceEnter';
  // The provider's text input, labelled by the paragraph above it and with a placeholder in the page's language.
  const labelled = form
    .replace(
      'placeholder="Enter code"',
      'placeholder="XXXX-XXXX" aria-labelledby="device-code-label" style="font-size:18px;padding:6px;width:100%;box-sizing:border-box"',
    )
    // An inline handler the content security policy would refuse anyway.
    .replace(/ onfocus="[^"]*"/, '');
  return plainPage(
    lang,
    TITLE(lang),
    `<p id="device-code-label">${escapeMarkup(t(lang, key))}</p>${labelled}${button('op.deviceInputForm', t(lang, 'oidcContinue'))}`,
  );
}

export function deviceConfirmPage(lang: Lang, form: string, client: string, userCode: string): string {
  return plainPage(
    lang,
    TITLE(lang),
    `<p>${escapeMarkup(t(lang, 'oidcDeviceConfirm', { client }))}</p><p style="font-size:24px;letter-spacing:2px"><code>${escapeMarkup(userCode)}</code></p>${form}${button('op.deviceConfirmForm', t(lang, 'oidcContinue'), ' autofocus')}${button('op.deviceConfirmForm', t(lang, 'oidcCancel'), ' name="abort" value="yes"', false)}`,
  );
}

export function deviceDonePage(lang: Lang): string {
  return plainPage(lang, TITLE(lang), `<p>${escapeMarkup(t(lang, 'oidcDeviceDone'))}</p>`);
}

const SCOPE_LABELS = {
  openid: 'oidcScopeOpenid',
  profile: 'oidcScopeProfile',
  phone: 'oidcScopePhone',
  roles: 'oidcScopeRoles',
  enterprise: 'oidcScopeEnterprise',
} as const;

/** The consent question for a client the tenant does not trust by itself (not first-party). */
export function consentPage(
  lang: Lang,
  p: { action: string; client: string; tenant: string; scopes: string[] },
): string {
  const items = p.scopes
    .filter((s): s is keyof typeof SCOPE_LABELS => s in SCOPE_LABELS)
    .map((s) => `<li>${escapeMarkup(t(lang, SCOPE_LABELS[s]))}</li>`)
    .join('');
  return plainPage(
    lang,
    t(lang, 'oidcConsentTitle'),
    `<p>${escapeMarkup(t(lang, 'oidcConsentAsk', { client: p.client, tenant: p.tenant }))}</p><ul>${items}</ul>` +
      `<form id="consent" method="post" action="${escapeMarkup(p.action)}"></form>` +
      `${button('consent', t(lang, 'oidcAllow'), ' name="decision" value="allow" autofocus')}${button('consent', t(lang, 'oidcDeny'), ' name="decision" value="deny"', false)}`,
  );
}
