/**
 * What a reply may attach (docs/product/validation.md#attachments): the extensions the server checks
 * (contracts) and the largest upload it takes (`UPLOAD_MAX_BYTES`, which config.js carries), said
 * next to the upload button and given to the file picker. Pure but for the configuration read.
 */
import { ATTACHMENT_ACCEPT, ATTACHMENT_EXTENSIONS, isAllowedAttachment } from '@portal/contracts';
import { runtimeConfig } from '../../../lib/config';

/** A size in whole or tenth megabytes (MiB, as the server counts): `20 MB`, `0.5 MB`. */
export function megabytes(bytes: number): string {
  const mb = Math.round((bytes / 2 ** 20) * 10) / 10;
  return `${mb} MB`;
}

export interface AttachmentRules {
  /** The file picker's filter. */
  accept: string;
  /** The extensions, for the hint: `mp4, gz, …`. */
  types: string;
  maxBytes: number;
  /** The largest file, for the hint. */
  size: string;
}

export function attachmentRules(maxBytes = runtimeConfig().uploadMaxBytes): AttachmentRules {
  return { accept: ATTACHMENT_ACCEPT, types: ATTACHMENT_EXTENSIONS.join(', '), maxBytes, size: megabytes(maxBytes) };
}

/** Why a chosen file is refused before it is sent, or null: its type, or its size. */
export function attachmentProblem(
  file: { name: string; size: number },
  rules: AttachmentRules,
): 'type' | 'size' | null {
  if (!isAllowedAttachment(file.name)) return 'type';
  if (file.size > rules.maxBytes) return 'size';
  return null;
}
