import { Select } from 'antd';

/**
 * One filter of an open device page: "all" (empty) first, then `values` labelled by `label`.
 * The value is one of `values` or empty, as the open calls take it.
 */
export function FilterSelect<V extends string>({
  name,
  all,
  values,
  value,
  label,
  onChange,
}: {
  name: string;
  all: string;
  values: readonly V[];
  value: V | '' | undefined;
  label: (v: V) => string;
  onChange: (v: V | '') => void;
}) {
  return (
    <Select<V | ''>
      aria-label={name}
      className="open-select"
      value={value || ''}
      onChange={onChange}
      options={[{ value: '' as const, label: all }, ...values.map((v) => ({ value: v, label: label(v) }))]}
    />
  );
}
