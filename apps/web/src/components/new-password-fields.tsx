import { Form, Input, type FormInstance } from 'antd';
import { useTranslation } from '../lib/i18n';
import { passwordRule, passwordRules, repeatRule } from './form-rules';
import { PasswordStrength } from './password-strength';

/**
 * A new password and its repetition (fields `password` and `repeat`) with the docs/product/validation.md#registration rules, the hint
 * and the strength meter: registration, forgot password, change password.
 */
export function NewPasswordFields({
  form,
  label,
  repeatLabel,
  username,
}: {
  form: FormInstance;
  label: string;
  repeatLabel: string;
  /** The account's name, which the password must not contain. */
  username: () => string | undefined;
}) {
  const { t } = useTranslation();
  const password = (Form.useWatch('password', form) as string | undefined) ?? '';
  return (
    <>
      {/* Required (the rules say so in their own words): marked as such where a form marks them. */}
      <Form.Item
        name="password"
        label={label}
        required
        extra={
          password ? (
            <PasswordStrength password={password} />
          ) : (
            t('forms.passwordHint', { min: passwordRules().passwordMinLength })
          )
        }
        rules={[passwordRule(username)]}
      >
        <Input.Password maxLength={64} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="repeat"
        label={repeatLabel}
        required
        dependencies={['password']}
        rules={[repeatRule(() => form.getFieldValue('password') as string | undefined)]}
      >
        <Input.Password maxLength={64} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
