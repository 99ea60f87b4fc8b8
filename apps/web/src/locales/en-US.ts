import type { Messages } from './zh-CN';

const enUS: Messages = {
  app: { siteName: 'Enterprise Service Portal', footer: '© {{year}} {{site}}' },
  login: {
    title: 'Sign in',
    subtitle: 'Welcome to {{site}}',
    username: 'Username',
    password: 'Password',
    captcha: 'Captcha',
    captchaAlt: 'Image captcha, click to refresh',
    submit: 'Sign in',
    submitting: 'Signing in…',
    usernameRequired: 'Username cannot be empty',
    passwordRequired: 'Password cannot be empty',
    captchaRequired: 'Captcha cannot be empty',
    browserNotice:
      'Only the 360 browser in speed mode, Chrome and other common browsers are supported. If you are sent back to this page after signing in, check the browser mode.',
    captchaFailed: 'The captcha did not load, click to retry',
  },
  errors: {
    loggedOut: 'You have been signed out. Stay on this page, or sign in again.',
    relogin: 'Sign in again',
    stay: 'Cancel',
    ticketExpired: 'Ticket expired',
    sessionTimeout: 'Your session timed out, please sign in again',
    noPermissionLogout: 'You have no permission for this operation!',
    noPermissionTitle: 'No permission',
    forcedLogout: 'Signing out',
    server: 'Server error',
    network: 'The request failed, please try again later',
    timeout: 'The request timed out, please try again later',
    routeFailed: 'The menu could not be loaded, please try again later',
  },
  shell: {
    collapse: 'Collapse menu',
    expand: 'Expand menu',
    logout: 'Sign out',
    home: 'Home',
    welcome: 'Welcome back, {{name}}',
    tenant: 'Park',
    group: 'Enterprise',
    emptyMenu: 'The menu of your current role is empty, please contact the administrator',
    pageEmpty: 'This page has no content yet',
    quickLinks: 'Shortcuts',
    openExternal: 'Open in a new window',
    language: '中文',
  },
  notFound: { title: '404', subtitle: 'Sorry, the page you visited does not exist', back: 'Back home' },
};

export default enUS;
