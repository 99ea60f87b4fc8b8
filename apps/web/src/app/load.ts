import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Props<C> = C extends ComponentType<infer P> ? P : never;

/** A module's component, loaded with the first render that needs it (its own chunk). */
export function load<M, K extends keyof M>(
  module: () => Promise<M>,
  name: K,
): LazyExoticComponent<ComponentType<Props<M[K]>>> {
  return lazy(async () => ({ default: (await module())[name] as ComponentType<Props<M[K]>> }));
}
