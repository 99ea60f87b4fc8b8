import type { ResultProps } from 'antd';
import { lazy, Suspense } from 'react';

const AntdResult = lazy(() => import('antd/es/result'));

/**
 * antd's Result, loaded when one is shown: it marks states that are rare (a failure, an empty
 * menu, a missing page), and its illustrations are a tenth of the first screen's bytes.
 */
export function Result(props: ResultProps) {
  return (
    <Suspense fallback={null}>
      <AntdResult {...props} />
    </Suspense>
  );
}
