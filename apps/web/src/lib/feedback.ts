/**
 * antd's feedback (message, Modal.confirm, notification), loaded on first use with the portal's
 * theme and locale (lib/antd.tsx): pages that never show one never carry it.
 */
import type { ModalFuncProps } from 'antd';
import type { ArgsProps } from 'antd/es/notification';

const withAntd = <T>(load: () => Promise<T>): Promise<T> => import('./antd').then(load);

export function toast(kind: 'success' | 'warning' | 'error', text: string, seconds?: number): void {
  void withAntd(() => import('antd/es/message')).then(({ default: message }) => message[kind](text, seconds));
}

export function confirm(props: ModalFuncProps): void {
  void withAntd(() => import('antd/es/modal')).then(({ default: Modal }) => Modal.confirm(props));
}

export function notifyError(props: ArgsProps): void {
  void withAntd(() => import('antd/es/notification')).then(({ default: notification }) => notification.error(props));
}
