export * from './codes.js';
export * from './constants.js';
export * from './entities.js';
export * from './envelope.js';
export * from './rules.js';
export * from './runtime-config.js';
export * from './signing.js';
export type * from './micro-host.js';
