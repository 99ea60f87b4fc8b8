/**
 * Registration of members and companies: the forms, the SMS code they need, whether a user name is
 * free, and the tenant's registration agreement.
 */
import { Type, type Static } from 'typebox';
import { Text } from './fields.js';

export const MemberRegistration = Type.Object({
  /** The tenant the registration is bound to; the default tenant when absent or empty. */
  tenantCode: Type.Optional(Text(64)),
  username: Text(64),
  password: Text(1024),
  mobile: Text(20),
  smsCode: Type.Optional(Text(12)),
  imgCode: Type.Optional(Text(1024)),
  hostUrl: Type.Optional(Text(1024)),
  number: Type.Optional(Text(64)),
});
export type MemberRegistration = Static<typeof MemberRegistration>;

export const CompanyRegistration = Type.Object({
  companyName: Text(128),
  industryCode: Text(32),
  country: Text(32),
  contacts: Text(64),
  position: Text(64),
  tenantCode: Type.Optional(Text(64)),
  password: Text(1024),
  mobile: Text(20),
  smsCode: Type.Optional(Text(12)),
  imgCode: Type.Optional(Text(1024)),
  hostUrl: Type.Optional(Text(1024)),
  number: Type.Optional(Text(64)),
});
export type CompanyRegistration = Static<typeof CompanyRegistration>;

export const SmsRequest = Type.Object({
  phone: Text(20),
  /**
   * 2, registration (docs/product/data.md#sms-request). Password-reset codes (3) come only from the
   * forgot-password flow, which sends them only to an account's own number.
   */
  type: Type.Literal(2),
  /** The captcha: the image's answer (with `number`), or a passed behavioural check. */
  imageCode: Text(1024),
  number: Type.Optional(Text(64)),
  /** The tenant the registration is bound to; the default tenant when absent. */
  tenantCode: Type.Optional(Text(64)),
});
export type SmsRequest = Static<typeof SmsRequest>;

/** `/sys/user/checkOnlyUser`: is a username still free in the tenant (30 per address per minute, ADR 010). */
export const CheckOnlyUserQuery = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  tenantCode: Type.Optional(Text(64)),
});
export type CheckOnlyUserQuery = Static<typeof CheckOnlyUserQuery>;
export const CheckOnlyUserData = Type.Object({ available: Type.Boolean() });
export type CheckOnlyUserData = Static<typeof CheckOnlyUserData>;

export const AgreementQuery = Type.Object({ tenantCode: Type.Optional(Text(64)) });
export type AgreementQuery = Static<typeof AgreementQuery>;
/** Registration agreement (docs/product/data.md#sub-management): sanitised HTML; empty when the tenant has none. */
export const AgreementData = Type.Object({ registerAgreement: Type.String() });
export type AgreementData = Static<typeof AgreementData>;

export const RegisterAgreement = Type.Object({ registerAgreement: Type.String() });
export type RegisterAgreement = Static<typeof RegisterAgreement>;
