/**
 * Stands in for `resize-observer-polyfill` in the build (vite.config.ts): every browser the portal
 * supports (an ES2022 target) has ResizeObserver, and the polyfill hands out the native one when
 * there is one anyway; its own implementation was 3 KB gzip of the first screen.
 */
export default globalThis.ResizeObserver;
