/**
 * A page of another application than the current one (my workbench, /workStand, belongs to
 * ENT_WORKBENCH): which application it is, and the switch to it when the user holds it and the
 * portal offers switching applications (`appSwitch`); the switch reloads the portal at the same
 * address, which then shows the page (docs/product/behaviour.md#switching).
 */
import { SwapOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Result } from '../../../components/lazy-result';
import { runtimeConfig } from '../../../lib/config';
import { addMessages, useTranslation } from '../../../lib/i18n';
import { storage } from '../../../lib/storage';
import { getApplications, switchContext } from '../api/account';

// Its texts come with its chunk, not with the first screen.
addMessages('switching', {
  'zh-CN': {
    elsewhere: '此页面属于“{{app}}”应用',
    elsewhereSwitch: '当前应用是“{{current}}”，切换到“{{app}}”后即可打开。',
    elsewhereSwitchShort: '切换到“{{app}}”后即可打开。',
    elsewhereAsk: '此页面只能在“{{app}}”应用中打开。',
    elsewhereNotHeld: '您尚未开通“{{app}}”应用，请联系管理员。',
    switchTo: '切换到“{{app}}”',
  },
  'en-US': {
    elsewhere: 'This page belongs to the “{{app}}” application',
    elsewhereSwitch: 'The current application is “{{current}}”; switch to “{{app}}” to open it.',
    elsewhereSwitchShort: 'Switch to “{{app}}” to open it.',
    elsewhereAsk: 'It opens only in the “{{app}}” application.',
    elsewhereNotHeld: 'You do not have the “{{app}}” application; ask your administrator.',
    switchTo: 'Switch to “{{app}}”',
  },
});

export function ApplicationElsewhere({ appCode }: { appCode: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const apps = useQuery({ queryKey: ['applications'], queryFn: getApplications });
  const [busy, setBusy] = useState(false);
  const target = apps.data?.find((a) => a.appCode === appCode);
  const current = apps.data?.find((a) => a.appCode === storage.get<string>('appCode'));
  const canSwitch = !!target && runtimeConfig().appSwitch;
  const name = target?.appName ?? appCode;
  const home = (
    <Button key="home" onClick={() => void navigate('/')}>
      {t('notFound.back')}
    </Button>
  );
  return (
    <Result
      status="info"
      title={t('switching.elsewhere', { app: name })}
      subTitle={
        apps.isPending
          ? null
          : !target
            ? t('switching.elsewhereNotHeld', { app: name })
            : canSwitch
              ? current
                ? t('switching.elsewhereSwitch', { app: name, current: current.appName })
                : t('switching.elsewhereSwitchShort', { app: name })
              : t('switching.elsewhereAsk', { app: name })
      }
      extra={
        <Space wrap>
          {canSwitch ? (
            <Button
              type="primary"
              icon={<SwapOutlined />}
              loading={busy}
              onClick={() => {
                setBusy(true);
                switchContext({ applyId: target.id }, { appCode: target.appCode }).catch(() => setBusy(false));
              }}
            >
              {t('switching.switchTo', { app: name })}
            </Button>
          ) : null}
          {home}
        </Space>
      }
    />
  );
}
