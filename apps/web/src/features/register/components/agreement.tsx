import { Button, Checkbox, Modal, Spin } from 'antd';
import DOMPurify from 'dompurify';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useAgreement } from '../api/register';
import '../messages';

/**
 * The agreement checkbox (a Form.Item control) with its viewer: the tenant's HTML, sanitised again
 * here, and the OK label 同意, which ticks the box.
 */
export function AgreementCheckbox({
  tenantCode,
  value,
  onChange,
}: {
  tenantCode: string;
  value?: boolean;
  onChange?: (v: boolean) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const agreement = useAgreement(tenantCode);
  const html = agreement.data?.registerAgreement ?? '';
  return (
    <>
      <Checkbox checked={value === true} onChange={(e) => onChange?.(e.target.checked)}>
        {t('register.agreePrefix')}
      </Checkbox>
      <Button type="link" className="reg-agreement-link" onClick={() => setOpen(true)}>
        {t('register.agreement')}
      </Button>
      <Modal
        open={open}
        title={t('register.agreementTitle')}
        okText={t('register.agree')}
        // 同意 exactly (docs/product/screens.md#registration-screen), not antd's spaced "同 意".
        okButtonProps={{ autoInsertSpace: false }}
        onOk={() => {
          onChange?.(true);
          setOpen(false);
        }}
        onCancel={() => setOpen(false)}
        width={720}
      >
        {agreement.isPending ? (
          <Spin />
        ) : agreement.isError ? (
          <Button onClick={() => void agreement.refetch()}>{t('register.loadFailed')}</Button>
        ) : html ? (
          <div
            className="reg-agreement-body"
            // Sanitised by the server when stored, and again here (DOMPurify).
            dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(html, { ADD_ATTR: ['target'] }) }}
          />
        ) : (
          <p>{t('register.agreementEmpty')}</p>
        )}
      </Modal>
    </>
  );
}
