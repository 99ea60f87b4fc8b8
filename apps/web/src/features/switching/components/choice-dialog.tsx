import { Checkbox, Empty, message, Modal, Radio, Spin, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { warn } from './warn';
import './switching.css';

export interface Choice {
  id: string;
  label: string;
}

export interface ChoiceDialogProps {
  title: string;
  options: Choice[] | undefined;
  /** Why the list could not be loaded (docs/product/errors.md#dialogs: the server's message, as a warning). */
  error?: Error | null;
  /** The session's current choice, preselected. */
  current: string | null;
  /** The next login's default; null when there is none. */
  defaultId: string | null;
  /** False when a workbench code is fixed: the default selectors are hidden (docs/product/permissions.md#fixed-workbench). */
  canSetDefault: boolean;
  onSwitch: (id: string) => Promise<void>;
  onSetDefault: (id: string) => Promise<void>;
  onClose: () => void;
}

/**
 * One choice among what the user holds (role, application, workbench), with the default for the
 * next login. Nothing changed closes the dialog (docs/product/behaviour.md#switching); a new default alone is saved and stays
 * in this context; another choice switches, which reloads the page.
 */
export function ChoiceDialog(props: ChoiceDialogProps) {
  const { title, options, error, current, defaultId, canSetDefault, onSwitch, onSetDefault, onClose } = props;
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<string | null>(null);
  const [asDefault, setAsDefault] = useState(false);
  const [pending, setPending] = useState(false);
  // The current choice, once the list shows that it is offered; else nothing, so that OK without
  // a choice only closes.
  const preselect = options?.some((o) => o.id === current) ? current : null;
  useEffect(() => setChosen((c) => c ?? preselect), [preselect]);
  useEffect(() => {
    if (error) warn(error);
  }, [error]);

  const onOk = async () => {
    if (!chosen) return onClose();
    const newDefault = canSetDefault && asDefault && chosen !== defaultId;
    if (!newDefault && chosen === current) return onClose();
    setPending(true);
    try {
      if (newDefault) await onSetDefault(chosen);
      if (chosen !== current) return await onSwitch(chosen); // the page reloads
      void message.success(t('switching.defaultSaved'));
      onClose();
    } catch (err) {
      warn(err);
    }
    setPending(false);
  };

  return (
    <Modal open title={title} onCancel={onClose} onOk={() => void onOk()} okButtonProps={{ loading: pending }}>
      {error ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={error.message} />
      ) : !options ? (
        <Spin />
      ) : options.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('switching.nothing')} />
      ) : (
        <>
          <Radio.Group
            className="switch-options"
            value={chosen}
            onChange={(e) => setChosen(e.target.value as string)}
            options={options.map((o) => ({
              value: o.id,
              label: (
                <>
                  {o.label}
                  {o.id === current && <Tag color="processing">{t('switching.current')}</Tag>}
                  {o.id === defaultId && <Tag>{t('switching.isDefault')}</Tag>}
                </>
              ),
            }))}
          />
          {canSetDefault && (
            <div className="switch-default">
              <Checkbox
                checked={chosen === defaultId || asDefault}
                disabled={chosen === defaultId}
                onChange={(e) => setAsDefault(e.target.checked)}
              >
                {t('switching.useAsDefault')}
              </Checkbox>
            </div>
          )}
        </>
      )}
    </Modal>
  );
}
