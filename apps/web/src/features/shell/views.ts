import { createContext, type ReactNode } from 'react';

/**
 * What other features render inside the shell's pages, wired by the app (features never import
 * each other): a drag-page view by its page code; more kinds join as their features arrive.
 */
export interface ShellViews {
  dragPage?: (pageId: string) => ReactNode;
  /** The business page a menu entry's `component` names, or null while no feature provides it. */
  businessPage?: (component: string) => ReactNode | null;
}

export const ShellViewsContext = createContext<ShellViews>({});
