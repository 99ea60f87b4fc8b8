import { createContext, type ReactNode } from 'react';
import type { SubPage } from './pages';

/** The tabs that show pages of sub-applications, for the layer that hosts them. */
export interface SubAppTabs {
  tabs: (SubPage & { key: string })[];
  /** The active tab's key. */
  active: string;
  /** False while the shell shows something else (a not-found address). */
  shown: boolean;
}

/**
 * What other features render inside the shell's pages, wired by the app (features never import
 * each other): a drag-page view by its page code; more kinds join as their features arrive.
 */
export interface ShellViews {
  dragPage?: (pageId: string) => ReactNode;
  /** My workbench (/workStand), given the menu's pages the user may open and the ones used lately. */
  workbench?: (props: WorkbenchProps) => ReactNode;
  /** 账户安全 (/account/security): the sections of the features that make it up. */
  accountSecurity?: () => ReactNode;
  /** An address of another application than the current one (its code): which, and the switch to it. */
  otherApplication?: (appCode: string) => ReactNode;
  /** The business page a menu entry's `component` names, or null while no feature provides it. */
  businessPage?: (component: string) => ReactNode | null;
  /**
   * The host of sub-applications, rendered beside the tab panels (not inside them: a hidden
   * panel's effects are destroyed, and a sub-application must live on while its tab is hidden).
   */
  subApps?: (state: SubAppTabs) => ReactNode;
}

/** A page of the menu, as a link to it. */
export interface PageLink {
  path: string;
  title: string;
}

export interface WorkbenchProps {
  /** The menu's own pages (no directories, nothing that opens a new window). */
  pages: PageLink[];
  /** Pages of the menu opened lately, most recent first. */
  recent: PageLink[];
  /** The shell's grid of icon links to the menu's pages at `paths`. */
  shortcuts: (paths: string[]) => ReactNode;
}

export const ShellViewsContext = createContext<ShellViews>({});
