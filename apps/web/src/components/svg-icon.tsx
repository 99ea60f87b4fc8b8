import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';
import { createElement, type ReactNode } from 'react';

const render = (node: AbstractNode, key?: number): ReactNode =>
  createElement(node.tag, { key, ...node.attrs }, node.children?.map(render));

/**
 * One of antd's outlined icons, drawn from its definition alone: for pages that must not carry
 * antd's icon runtime (the login page). Sized and coloured by the text around it, as antd's are.
 */
export function SvgIcon({ icon }: { icon: IconDefinition }) {
  const svg = typeof icon.icon === 'function' ? icon.icon('currentColor', 'currentColor') : icon.icon;
  return (
    <span role="img" aria-hidden="true" className="svg-icon">
      {createElement(
        'svg',
        { ...svg.attrs, width: '1em', height: '1em', fill: 'currentColor', 'aria-hidden': true },
        svg.children?.map(render),
      )}
    </span>
  );
}
