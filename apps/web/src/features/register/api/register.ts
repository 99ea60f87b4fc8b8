import type {
  AgreementData,
  CheckOnlyUserData,
  CompanyRegistration,
  IndustryNode,
  MemberRegistration,
  RegionNode,
} from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api/client';
import { useTranslation } from '../../../lib/i18n';

const quiet = {
  anonymous: true,
  failures: { handledBy: 'the registration page: 注册失败 with the server message' },
} as const;

export function registerCompany(body: CompanyRegistration): Promise<void> {
  return request('/api/front/member/registerMemberByGyszmf', { ...quiet, body: { ...body } });
}

export function registerMember(body: MemberRegistration): Promise<void> {
  return request('/api/front/member/registerMember', { ...quiet, body: { ...body } });
}

/** sendPhoneCode (type 2, registration): `imageCode` is the captcha's answer or verification. */
export function sendPhoneCode(body: {
  phone: string;
  type: number;
  imageCode: string;
  number?: string | undefined;
  tenantCode: string;
}): Promise<void> {
  return request('/api/front/member/sendPhoneCode', { ...quiet, body: { ...body } });
}

/** `/sys/user/checkOnlyUser`: whether a username is still free (false also for mobile numbers). */
export async function usernameAvailable(username: string, tenantCode: string): Promise<boolean> {
  const data = await request<CheckOnlyUserData>('/sys/user/checkOnlyUser', {
    ...quiet,
    query: { username, tenantCode },
  });
  return data.available;
}

/** The tenant's agreement in the page's language: the register page switches language in place. */
export function useAgreement(tenantCode: string) {
  const { language } = useTranslation().i18n;
  return useQuery({
    queryKey: ['agreement', tenantCode, language],
    queryFn: () =>
      request<AgreementData>('/api/front/registerContent/getInfoByTenantCode', { ...quiet, query: { tenantCode } }),
    staleTime: 5 * 60_000,
  });
}

export function useIndustryTree() {
  return useQuery({
    queryKey: ['industries'],
    queryFn: () => request<IndustryNode[]>('/api/front/select/indTree', quiet),
    staleTime: 30 * 60_000,
  });
}

/** One level of regions: the provinces for `0`, else the children of a code. */
export function regionChildren(qhCode: string): Promise<RegionNode[]> {
  return request<RegionNode[]>('/api/front/select/regionTreeListByCode', { ...quiet, query: { qhCode } });
}
