import type { MicroHostProps } from '@portal/contracts';

/**
 * The one seam between the portal and the library that loads sub-applications (ADR 025): the
 * layer that keeps sub-applications alive in tabs knows only this, so the library can be replaced.
 */
export interface MicroAppAdapter {
  /**
   * Loads the sub-application at `entry` (its index.html) and mounts it into `container`;
   * rejects when it cannot load within `timeoutMs`.
   */
  mount(options: {
    code: string;
    entry: string;
    container: HTMLElement;
    props: MicroHostProps;
    timeoutMs: number;
  }): Promise<MountedApp>;
}

export interface MountedApp {
  /** Unmounts it and lets go of everything the mount made. */
  destroy(): Promise<void>;
}
