import type { PermissionItem } from '@portal/contracts';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Authorized, hasPermission } from './permissions';
import { useSession } from './session';

const p = (action: string, status = '1', type = '1'): PermissionItem => ({ action, describe: action, status, type });

const data = {
  auth: [p('messageIndex'), p('wf:approve', '1', '2')],
  allAuth: [
    p('messageIndex'),
    p('colist'),
    p('ent:export', '0'),
    p('hidden:free', '0', '2'),
    p('wf:approve', '1', '2'),
  ],
};

describe('hasPermission', () => {
  it('grants a code held in auth', () => {
    expect(hasPermission('messageIndex', data)).toBe(true);
  });

  it('refuses a code that is only in allAuth with status 1', () => {
    expect(hasPermission('colist', data)).toBe(false);
  });

  it('grants a code in allAuth with status 0 to everyone', () => {
    expect(hasPermission('ent:export', data)).toBe(true);
  });

  it('ignores type 2 entries in both lists', () => {
    expect(hasPermission('wf:approve', data)).toBe(false);
    expect(hasPermission('hidden:free', data)).toBe(false);
  });

  it('accepts any of comma-separated codes, spaces allowed', () => {
    expect(hasPermission('colist, messageIndex', data)).toBe(true);
    expect(hasPermission('colist,unknown', data)).toBe(false);
    expect(hasPermission(' , ', data)).toBe(false);
    expect(hasPermission('', data)).toBe(false);
  });

  it("grants a code in a workflow node's own permission list", () => {
    expect(hasPermission('colist', data, ['colist'])).toBe(true);
    expect(hasPermission('wf:approve', data, [p('wf:approve')])).toBe(true);
    expect(hasPermission('wf:approve', data, [p('wf:approve', '1', '2')])).toBe(false);
    expect(hasPermission('colist', data, ['other'])).toBe(false);
  });

  it('refuses everything without permission data', () => {
    expect(hasPermission('messageIndex', null)).toBe(false);
  });
});

describe('Authorized', () => {
  afterEach(() => useSession.setState({ menu: null }));

  it('removes the guarded element unless the code is granted', () => {
    useSession.setState({ menu: { ...data, menu: [] } });
    render(
      <>
        <Authorized code="messageIndex">
          <span>bell</span>
        </Authorized>
        <Authorized code="colist">
          <span>colist</span>
        </Authorized>
      </>,
    );
    expect(screen.queryByText('bell')).not.toBeNull();
    expect(screen.queryByText('colist')).toBeNull();
  });
});
