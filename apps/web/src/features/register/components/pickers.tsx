import type { IndustryNode } from '@portal/contracts';
import { Cascader } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { regionChildren, useIndustryTree } from '../api/register';
import '../messages';

interface Option {
  value: string;
  label: string;
  isLeaf?: boolean;
  children?: Option[];
}

const toOptions = (nodes: IndustryNode[]): Option[] =>
  nodes.map((n) => ({
    value: n.code,
    label: n.name,
    ...(n.children?.length ? { children: toOptions(n.children) } : { isLeaf: true }),
  }));

/** Industry (GB/T 4754): the whole tree at once (about 1,700 entries); only a 4th-level class is chosen. */
export function IndustryPicker({
  value,
  onChange,
  id,
}: {
  value?: string[];
  onChange?: (v: string[]) => void;
  id?: string;
}) {
  const { t } = useTranslation();
  const tree = useIndustryTree();
  return (
    <Cascader
      id={id}
      options={tree.data ? toOptions(tree.data) : []}
      value={value}
      onChange={(v) => onChange?.((v ?? []) as string[])}
      placeholder={t('register.industryPlaceholder')}
      loading={tree.isPending}
      showSearch={{ filter: (input, path) => path.some((o) => String(o.label).includes(input.trim())) }}
      notFoundContent={tree.isError ? t('register.loadFailed') : undefined}
      onDropdownVisibleChange={(open) => open && tree.isError && void tree.refetch()}
    />
  );
}

/**
 * Region (GB/T 2260): each level loaded when opened, so the picker never holds the 45,000 entries;
 * any level can be chosen, the deepest code is sent.
 */
export function RegionPicker({
  value,
  onChange,
  id,
}: {
  value?: string[];
  onChange?: (v: string[]) => void;
  id?: string;
}) {
  const { t } = useTranslation();
  const [options, setOptions] = useState<Option[]>([]);
  const [failed, setFailed] = useState(false);
  const loadRoot = () => {
    setFailed(false);
    regionChildren('0').then(
      (nodes) => setOptions(nodes.map((n) => ({ value: n.code, label: n.name, isLeaf: n.isLeaf }))),
      () => setFailed(true),
    );
  };
  useEffect(loadRoot, []);
  return (
    <Cascader
      id={id}
      options={options}
      value={value}
      onChange={(v) => onChange?.((v ?? []) as string[])}
      placeholder={t('register.regionPlaceholder')}
      changeOnSelect
      notFoundContent={failed ? t('register.loadFailed') : undefined}
      onDropdownVisibleChange={(open) => open && failed && loadRoot()}
      loadData={async (selected) => {
        const target = selected[selected.length - 1] as Option;
        try {
          const nodes = await regionChildren(target.value);
          target.children = nodes.map((n) => ({ value: n.code, label: n.name, isLeaf: n.isLeaf }));
          if (nodes.length === 0) target.isLeaf = true;
        } catch {
          // Left as it was: opening it again asks again.
        }
        setOptions((o) => [...o]);
      }}
    />
  );
}
