import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChoiceDialog, type ChoiceDialogProps } from './choice-dialog';

afterEach(cleanup);

const OPTIONS = [
  { id: '1', label: '企业成员' },
  { id: '2', label: '企业管理员' },
];

function setup(over: Partial<ChoiceDialogProps> = {}) {
  const props = {
    onSwitch: vi.fn(async (_id: string) => {}),
    onSetDefault: vi.fn(async (_id: string) => {}),
    onClose: vi.fn(),
  };
  render(
    <ChoiceDialog title="切换角色" options={OPTIONS} current="1" defaultId="1" canSetDefault {...props} {...over} />,
  );
  const ok = () => fireEvent.click(screen.getByRole('button', { name: /^(OK|确\s?定)$/ }));
  return { props, ok };
}

describe('ChoiceDialog (role, application, workbench: switching, defaults)', () => {
  it('nothing changed: OK only closes', async () => {
    const { props, ok } = setup();
    expect((screen.getByRole('radio', { name: /企业成员/ }) as HTMLInputElement).checked).toBe(true);
    ok();
    await waitFor(() => expect(props.onClose).toHaveBeenCalled());
    expect(props.onSwitch).not.toHaveBeenCalled();
    expect(props.onSetDefault).not.toHaveBeenCalled();
  });

  it('another choice switches; with the box ticked it becomes the default first', async () => {
    const { props, ok } = setup();
    fireEvent.click(screen.getByRole('radio', { name: /企业管理员/ }));
    fireEvent.click(screen.getByRole('checkbox'));
    ok();
    await waitFor(() => expect(props.onSwitch).toHaveBeenCalledWith('2'));
    expect(props.onSetDefault).toHaveBeenCalledWith('2');
    expect(props.onSetDefault.mock.invocationCallOrder[0]).toBeLessThan(props.onSwitch.mock.invocationCallOrder[0]!);
  });

  it('the current choice made the default only saves the default and stays in this context', async () => {
    const { props, ok } = setup({ defaultId: '2' });
    fireEvent.click(screen.getByRole('checkbox'));
    ok();
    await waitFor(() => expect(props.onSetDefault).toHaveBeenCalledWith('1'));
    expect(props.onSwitch).not.toHaveBeenCalled();
    await waitFor(() => expect(props.onClose).toHaveBeenCalled());
  });

  it('a current choice that is not offered preselects nothing, so OK does not switch', async () => {
    const { props, ok } = setup({ current: '9' });
    expect(screen.getAllByRole('radio').every((r) => !(r as HTMLInputElement).checked)).toBe(true);
    ok();
    await waitFor(() => expect(props.onClose).toHaveBeenCalled());
    expect(props.onSwitch).not.toHaveBeenCalled();
  });

  it('with a fixed workbench code there is no default selector; a list that failed shows why', () => {
    setup({ canSetDefault: false });
    expect(screen.queryByRole('checkbox')).toBeNull();
    cleanup();
    setup({ options: undefined, error: new Error('当前用户无该工作台权限') });
    expect(screen.getAllByText('当前用户无该工作台权限').length).toBeGreaterThan(0);
  });
});
