import { storage } from '../../lib/storage';

/**
 * A workbench code the address fixed (benchCode, docs/product/permissions.md#fixed-workbench): then only that workbench is offered,
 * no default selector is shown, and there is no enterprise switch.
 */
export const fixedBench = (): string | null => storage.get<string>('benchCode');
