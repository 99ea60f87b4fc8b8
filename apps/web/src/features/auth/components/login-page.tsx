import { LockOutlined, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons';
import { LIMITS } from '@portal/contracts';
import { Alert, Button, Form, Input, message, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api/client';
import { runtimeConfig } from '../../../lib/config';
import { useCaptcha } from '../api/get-captcha';
import { useLogin, type LoginInput } from '../api/login';
import './login-page.css';

export interface LoginPageProps {
  /** Called after a successful login; the route decides where to go. */
  onSuccess: () => void;
  /** Language toggle, shown only when the runtime config allows switching. */
  languageToggle?: React.ReactNode;
}

export function LoginPage({ onSuccess, languageToggle }: LoginPageProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<LoginInput>();
  const [counter, setCounter] = useState(0);
  const captcha = useCaptcha(counter);
  const loginMutation = useLogin();
  const site = runtimeConfig().siteName || t('app.siteName');

  const refreshCaptcha = () => {
    form.setFieldValue('imgvercode', '');
    setCounter((c) => c + 1);
  };

  const submit = async (values: LoginInput) => {
    try {
      await loginMutation.mutateAsync(values);
      onSuccess();
    } catch (err) {
      // §8: the server's message for 5 s; a new captcha after every attempt.
      void message.error(err instanceof ApiError ? err.message : String(err), LIMITS.loginErrorSeconds);
      refreshCaptcha();
    }
  };

  return (
    <div className="login-page">
      <section className="login-brand" aria-hidden="true">
        <div className="login-brand-inner">
          {runtimeConfig().logo ? <img src={runtimeConfig().logo} alt="" className="login-logo" /> : null}
          <h1>{site}</h1>
          <p>{t('login.subtitle', { site })}</p>
        </div>
      </section>
      <main className="login-panel">
        <div className="login-card">
          <div className="login-card-brand">{site}</div>
          <div className="login-card-head">
            <Typography.Title level={3} style={{ margin: 0 }}>
              {t('login.title')}
            </Typography.Title>
            {languageToggle}
          </div>
          <Form form={form} layout="vertical" size="large" onFinish={submit} requiredMark={false} autoComplete="on">
            <Form.Item
              name="username"
              label={t('login.username')}
              rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}
            >
              <Input prefix={<UserOutlined />} autoComplete="username" autoFocus maxLength={64} />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('login.password')}
              rules={[{ required: true, message: t('login.passwordRequired') }]}
            >
              <Input.Password prefix={<LockOutlined />} autoComplete="current-password" maxLength={128} />
            </Form.Item>
            <Form.Item label={t('login.captcha')} required>
              <div className="login-captcha-row">
                <Form.Item
                  name="imgvercode"
                  noStyle
                  rules={[{ required: true, whitespace: true, message: t('login.captchaRequired') }]}
                >
                  <Input
                    prefix={<SafetyCertificateOutlined />}
                    autoComplete="off"
                    maxLength={8}
                    aria-label={t('login.captcha')}
                  />
                </Form.Item>
                <button
                  type="button"
                  className="login-captcha-image"
                  onClick={refreshCaptcha}
                  title={t('login.captchaAlt')}
                >
                  {captcha.data ? (
                    <img src={captcha.data.image} alt={t('login.captchaAlt')} width={120} height={40} />
                  ) : (
                    <span>{captcha.isError ? t('login.captchaFailed') : '…'}</span>
                  )}
                </button>
              </div>
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={loginMutation.isPending}>
              {loginMutation.isPending ? t('login.submitting') : t('login.submit')}
            </Button>
          </Form>
          <Alert className="login-notice" type="info" showIcon message={t('login.browserNotice')} />
        </div>
      </main>
    </div>
  );
}
