/**
 * The catalogs registration picks from and other modules read (docs/product/calls.md#call-list): industries (GB/T
 * 4754-2017, the table's tree, cached by the repository) and regions (GB/T 2260, in memory).
 */
import type { IndustryNode, RegionNode } from '@portal/contracts';
import type { Lang } from '../../platform/i18n.js';
import type { CatalogRepository } from './catalog.repository.js';
import { provinceName } from './names-en.js';
import { isRegionCode, regionChildren, regionPath } from './regions.js';

export function createCatalogService(deps: { repo: CatalogRepository }) {
  const { repo } = deps;
  return {
    /** The whole industry tree, or one node's direct children when a parent is named. */
    industries(parentCode: string | undefined): Promise<IndustryNode[]> {
      return parentCode ? repo.industryChildren(parentCode) : repo.industryTree();
    },
    /** A region's direct children; the provinces for none ('0'). */
    regions(parentCode: string | undefined): RegionNode[] {
      return regionChildren(parentCode || '0');
    },
    isIndustryLeaf: (code: string): Promise<boolean> => repo.isIndustryLeaf(code),
    sectionsOf: (codes: readonly string[], lang: Lang) => repo.sectionsOf(codes, lang),
    isRegion: (code: string): boolean => isRegionCode(code),
    regionPath: (code: string): string[] | null => regionPath(code),
    industryNames: (code: string, lang: Lang) => repo.industryNames(code, lang),
    /** A region's names from the province down in `lang`: in English the province's alone (names-en.ts). */
    regionNames(code: string, lang: Lang): string[] | null {
      const path = regionPath(code);
      if (!path || lang === 'zh') return path;
      return [provinceName(lang, code, path[0]!)];
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
