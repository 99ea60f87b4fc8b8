import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers } from './app/providers';
import { AppRoutes } from './app/router';
import { SignOnApp } from './app/sign-on-app';
import { watchHostLogout } from './app/host-logout';
import { initI18n } from './lib/i18n';
import { followOtherTabs } from './lib/session';
import './styles.css';

// The same bundle serves the sign-on server's page at /cas/login and the portal under its base.
const signOnPage = window.location.pathname.startsWith('/cas/');
if (!signOnPage) {
  followOtherTabs();
  watchHostLogout();
}

// English's dictionary is a chunk of its own: the first render waits for it, so no key shows.
void initI18n().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>{signOnPage ? <SignOnApp /> : <AppRoutes />}</Providers>
    </StrictMode>,
  ),
);
