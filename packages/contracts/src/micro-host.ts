/**
 * What the portal hands a sub-application it hosts (ADR 025), whatever library loads it: the
 * sub-application finds these as its mount props. Types only: a sub-application built elsewhere
 * copies this file or depends on `@portal/contracts` for it.
 */

/** Every `/api` answer. */
export interface MicroEnvelope<T> {
  status: number;
  message: string;
  data: T;
}

export interface MicroHostUser {
  userId: string;
  username: string;
  name: string;
  tenantCode: string;
}

export interface MicroRequest {
  method?: 'GET' | 'POST';
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: Record<string, unknown>;
}

export interface MicroHostProps {
  /** The sub-application's code; its pages live under `/{code}` in the portal. */
  code: string;
  /** The route inside the sub-application that the active tab shows (`/repair`, `/repair/12`). */
  route: string;
  /** Tells the sub-application when its tab (or another tab of it) shows another route. */
  onRouteChange(listener: (route: string) => void): () => void;
  language: 'zh' | 'en';
  /** The portal token, for a sub-application's own back end (sent as `Authorization_front`). */
  getToken(): string | null;
  user(): MicroHostUser | null;
  /** docs/product/permissions.md#action-codes: whether the session's role may use what `code` guards (`auth` / `allAuth`). */
  hasPermission(code: string): boolean;
  /** A call to the portal's API, signed and authenticated: answers the envelope, never throws on 4xx. */
  request<T>(path: string, init?: MicroRequest): Promise<MicroEnvelope<T>>;
  /** Opens a portal tab: `path` inside the portal (`/park-services/repair/12`), with its title. */
  navigate(path: string, options?: { title?: string }): void;
  /** Ends the session (as setting the global `loginstate` to false does, docs/product/overview.md#forced-logout). */
  logout(): void;
}
