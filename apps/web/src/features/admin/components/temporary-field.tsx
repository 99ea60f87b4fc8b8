import { Checkbox, Form } from 'antd';
import { useTranslation } from '../../../lib/i18n';

/**
 * Whether a password an operator sets is temporary (field `temporary`, on by default, ADR 033): the
 * operator knows it, so its owner must choose their own at the next sign-in unless this is cleared.
 */
export function TemporaryField() {
  const { t } = useTranslation();
  return (
    <Form.Item name="temporary" valuePropName="checked" initialValue={true} extra={t('admin.users.temporaryHelp')}>
      <Checkbox>{t('admin.users.temporary')}</Checkbox>
    </Form.Item>
  );
}
