/** The factor step's SMS and recovery-code texts, in its own chunk (the login page does not carry them). */
import { addMessages } from '../../lib/i18n';

addMessages('factor', {
  'zh-CN': {
    useSms: '使用短信验证码',
    leadSms: '验证码将发送到你已验证的手机 {{mobile}}。',
    smsLabel: '短信验证码',
    smsSend: '发送验证码',
    smsResend: '{{seconds}} 秒后重新发送',
    smsSent: '验证码已发送到 {{mobile}}',
    recoveryTitle: '保存你的恢复码',
    recoveryLead: '身份验证器已添加。手机丢失时，可用下面的恢复码登录。恢复码只显示这一次，每个只能使用一次。',
    copy: '复制',
    copied: '已复制',
    download: '下载',
    continue: '我已保存，继续登录',
    recoveryFile: '恢复码',
  },
  'en-US': {
    useSms: 'Use an SMS code',
    leadSms: 'The code goes to your verified mobile {{mobile}}.',
    smsLabel: 'SMS code',
    smsSend: 'Send code',
    smsResend: 'Send again in {{seconds}} s',
    smsSent: 'A code was sent to {{mobile}}',
    recoveryTitle: 'Save your recovery codes',
    recoveryLead:
      'Your authenticator is added. If you lose your phone, sign in with one of these codes. They are shown this once; each works once.',
    copy: 'Copy',
    copied: 'Copied',
    download: 'Download',
    continue: 'I have saved them, continue',
    recoveryFile: 'recovery-codes',
  },
});
