import { hostProps } from './props';

// The page without a host library: what the pages cost before either library is added.
window.candidate = {
  async open() {
    hostProps();
  },
  async close() {},
};
