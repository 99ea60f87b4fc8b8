/**
 * My workbench (docs/product/screens.md#fixed-routes /workStand, ADR 028): the widgets a user arranges on a grid, saved per
 * user and tenant.
 */
import { Type, type Static } from 'typebox';

export const WORKBENCH_WIDGETS = ['shortcuts', 'notices', 'enterprises', 'recent', 'alerts'] as const;
export type WorkbenchWidget = (typeof WORKBENCH_WIDGETS)[number];

export const WorkbenchLayout = Type.Object(
  {
    /** Each widget at most once; one left out is hidden. */
    items: Type.Array(
      Type.Object(
        {
          i: Type.Enum(WORKBENCH_WIDGETS),
          x: Type.Integer({ minimum: 0, maximum: 11 }),
          y: Type.Integer({ minimum: 0, maximum: 200 }),
          w: Type.Integer({ minimum: 1, maximum: 12 }),
          h: Type.Integer({ minimum: 1, maximum: 30 }),
        },
        { additionalProperties: false },
      ),
      { maxItems: WORKBENCH_WIDGETS.length },
    ),
    /** The menu paths the user pinned as shortcuts, in order. */
    shortcuts: Type.Array(Type.String({ pattern: '^/(?!/)[^\\s\\\\]*$', maxLength: 500 }), { maxItems: 24 }),
  },
  { additionalProperties: false },
);
export type WorkbenchLayout = Static<typeof WorkbenchLayout>;
