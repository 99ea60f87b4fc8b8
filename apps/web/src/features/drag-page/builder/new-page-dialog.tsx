import type { LocalText } from '@portal/contracts';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from '../../../lib/i18n';

interface Values {
  code: string;
  zh: string;
  en?: string;
}

/** A new page: its code (what menu entries name, fixed once saved) and its title. */
export function NewPageDialog({
  open,
  taken,
  onClose,
  onCreate,
}: {
  open: boolean;
  taken: string[];
  onClose: () => void;
  onCreate: (code: string, title: LocalText) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  return (
    <Modal
      open={open}
      title={t('dragPage.newPage')}
      okText={t('dragPage.create')}
      onCancel={onClose}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={(v) => onCreate(v.code, v.en ? { zh: v.zh, en: v.en } : { zh: v.zh })}
      >
        <Form.Item
          name="code"
          label={t('dragPage.code')}
          extra={t('dragPage.codeHelp')}
          rules={[
            { required: true, message: t('dragPage.codeRequired') },
            { pattern: /^[A-Za-z0-9_-]{1,64}$/, message: t('dragPage.codeInvalid') },
            {
              validator: async (_, v: string) =>
                taken.includes(v) ? Promise.reject(new Error(t('dragPage.codeTaken'))) : undefined,
            },
          ]}
        >
          <Input autoFocus />
        </Form.Item>
        <Form.Item
          name="zh"
          label={t('dragPage.pageTitle')}
          rules={[{ required: true, message: t('dragPage.titleRequired') }, { max: 100 }]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="en" label={t('dragPage.pageTitleEn')} rules={[{ max: 100 }]}>
          <Input />
        </Form.Item>
      </Form>
    </Modal>
  );
}
