/**
 * Self-registration (ADR 010, docs/product/data.md#registration-payloads, docs/product/behaviour.md#sms-button, docs/product/validation.md#registration): a member, or a company with its first member, bound
 * to a tenant. The rules of docs/product/validation.md#registration are checked here as in the form; a person is proven by the SMS code
 * (when SMS verification is on) or by a passed captcha; nothing is written unless everything holds.
 */
import {
  isBlank,
  isValidPhone,
  normalizeUsername,
  ResultCode,
  type CompanyRegistration,
  type MemberRegistration,
} from '@portal/contracts';
import { AppError } from '../../platform/errors.js';
import { localized, type Lang, type MessageKey } from '../../platform/i18n.js';
import { acceptPersonName, acceptUsername } from '../../platform/names.js';
import type { AcceptedPassword, Passwords } from '../../platform/passwords.js';
import type { RateLimiter } from '../../platform/rate-limit.js';
import type { Tenants } from '../../platform/tenants.js';
import { takenBy, type RegistrationRepository, type Taken } from './registration.repository.js';

export interface RegistrationDeps {
  repo: RegistrationRepository;
  /** A new password's rule and hash (ADR 038). */
  passwords: Passwords;
  limiter: RateLimiter;
  /** Whether registration asks for an SMS code (runtime `notsms` and not `registerWithoutSms`). */
  /** Whether the tenant's registration asks for an SMS code (its switches `notsms`, `registerWithoutSms`). */
  smsRequired: (tenantId: number) => Promise<boolean>;
  /** Spends the SMS code; true when it was the live code of this phone for registration. */
  checkSmsCode: (tenantId: number, phone: string, code: string) => Promise<boolean>;
  /** Spends the captcha (a passed behavioural check, or the image's answer with `number`). */
  verifyHuman: (p: { number?: string | undefined; answer: string }) => Promise<boolean>;
  /**
   * Catalog lookups: a leaf of the industry tree (a 4th-level class once the full classification is
   * imported; the picker offers only leaves), and a region code.
   */
  isIndustryLeaf: (code: string) => Promise<boolean>;
  isRegion: (code: string) => Promise<boolean>;
  tenants: Pick<Tenants, 'idOf' | 'registrableIdOf'>;
  phonePattern: string;
}

/** Registrations per address per hour, and username checks per address per minute. */
export const REGISTRATION_LIMITS = { perIpPerHour: 20, checksPerIpPerMinute: 30 } as const;

const TAKEN_MESSAGE: Record<Taken, MessageKey> = {
  username: 'usernameTaken',
  mobile: 'mobileTaken',
  company: 'companyTaken',
};

const bad = (key: MessageKey) => new AppError(ResultCode.BAD_REQUEST, key);

export function createRegistrationService(deps: RegistrationDeps) {
  const { repo } = deps;

  interface Common {
    tenantId: number;
    username: string;
    /** The password as it travels (encrypted). */
    password: string;
    mobile: string;
    smsCode?: string | undefined;
    imgCode?: string | undefined;
    number?: string | undefined;
    company?: string;
  }

  /**
   * The checks that cost nothing first; then, counted per address, what is taken and whether the
   * tenant takes registrations, before the proof is spent; the mobile number only after the proof
   * (whoever holds the phone may learn that it is registered, nobody else). Answers the number when
   * an SMS code proved it to be the registrant's, null when a captcha only proved a person: such a
   * number is the registrant's word, and takes up no enterprise invitation (ADR 023). With it, the
   * password, accepted by its rule.
   */
  async function prove(c: Common, ip: string): Promise<{ verifiedMobile: string | null; password: AcceptedPassword }> {
    if (!isValidPhone(c.mobile, deps.phonePattern)) throw bad('phoneInvalid');
    const password = await deps.passwords.accept(c.password, { tenantId: c.tenantId, username: c.username });
    await deps.limiter.hit(`register:ip:${ip}`, REGISTRATION_LIMITS.perIpPerHour, 3600);
    const taken = await repo.taken(c.tenantId, { username: c.username, company: c.company });
    if (taken) throw new AppError(ResultCode.CONFLICT, TAKEN_MESSAGE[taken]);
    if (!(await repo.hasDefaultRole(c.tenantId))) throw bad('noDefaultRole');
    let verifiedMobile: string | null = null;
    if (await deps.smsRequired(c.tenantId)) {
      if (isBlank(c.smsCode)) throw bad('smsCodeRequired');
      if (!(await deps.checkSmsCode(c.tenantId, c.mobile, c.smsCode!.trim()))) throw bad('smsCodeInvalid');
      verifiedMobile = c.mobile;
    } else if (isBlank(c.imgCode) || !(await deps.verifyHuman({ number: c.number, answer: c.imgCode! }))) {
      throw bad('humanCheckFailed');
    }
    if (await repo.mobileTaken(c.tenantId, c.mobile)) throw new AppError(ResultCode.CONFLICT, 'mobileTaken');
    return { verifiedMobile, password };
  }

  async function create(...args: Parameters<RegistrationRepository['create']>): Promise<void> {
    try {
      if (!(await repo.create(...args))) throw bad('noDefaultRole');
    } catch (err) {
      // Someone else took the name between the check and the insert.
      const taken = takenBy(err);
      if (taken) throw new AppError(ResultCode.CONFLICT, TAKEN_MESSAGE[taken]);
      throw err;
    }
  }

  return {
    async registerMember(input: MemberRegistration, ip: string): Promise<void> {
      if (isBlank(input.username)) throw bad('usernameRequired');
      const username = acceptUsername(input.username);
      // A company's first member signs in with the mobile number: nobody may take one as a name.
      if (isValidPhone(username, deps.phonePattern) && username !== input.mobile.trim()) throw bad('usernameIsMobile');
      const tenantId = await deps.tenants.registrableIdOf(input.tenantCode);
      const mobile = input.mobile.trim();
      const { verifiedMobile, password } = await prove({ ...input, tenantId, username, mobile }, ip);
      await create({
        tenantId,
        username,
        passwordHash: await password.hash(),
        name: username,
        mobile,
        verifiedMobile,
      });
    },

    /** A company and its first member, who signs in with the mobile number. */
    async registerCompany(input: CompanyRegistration, ip: string): Promise<void> {
      const required: [string, MessageKey][] = [
        [input.companyName, 'companyRequired'],
        [input.industryCode, 'industryRequired'],
        [input.country, 'regionRequired'],
        [input.contacts, 'contactRequired'],
        [input.position, 'positionRequired'],
      ];
      const missing = required.find(([v]) => isBlank(v));
      if (missing) throw bad(missing[1]);
      const tenantId = await deps.tenants.registrableIdOf(input.tenantCode);
      if (!(await deps.isIndustryLeaf(input.industryCode.trim()))) throw bad('industryRequired');
      if (!(await deps.isRegion(input.country.trim()))) throw bad('regionRequired');
      const contacts = acceptPersonName(input.contacts, { required: 'contactRequired' });
      const mobile = input.mobile.trim();
      const company = input.companyName.trim();
      // The first member signs in with the mobile number: it is their user name, under its rule too.
      acceptUsername(mobile);
      const { verifiedMobile, password } = await prove({ ...input, tenantId, username: mobile, mobile, company }, ip);
      await create({
        tenantId,
        username: mobile,
        passwordHash: await password.hash(),
        name: contacts,
        mobile,
        verifiedMobile,
        enterprise: {
          name: company,
          industryCode: input.industryCode.trim(),
          regionCode: input.country.trim(),
          contacts,
          position: input.position.trim(),
        },
      });
    },

    /** Whether a username is free in the tenant (rate-limited: it tells who has an account). */
    async usernameAvailable(tenantCode: string | undefined, username: string, ip: string): Promise<boolean> {
      await deps.limiter.hit(`check-user:ip:${ip}`, REGISTRATION_LIMITS.checksPerIpPerMinute, 60);
      const name = normalizeUsername(username);
      // Mobile numbers are not member names; answering for them would tell which are registered.
      if (isValidPhone(name, deps.phonePattern)) return false;
      return (await repo.taken(await deps.tenants.idOf(tenantCode), { username: name })) === null;
    },

    async agreement(tenantCode: string | undefined, lang: Lang): Promise<string> {
      const agreement = await repo.agreement(await deps.tenants.idOf(tenantCode));
      return agreement ? localized(lang, agreement, 'html') : '';
    },
  };
}

export type RegistrationService = ReturnType<typeof createRegistrationService>;
