/**
 * The tenant the console acts on (ADR 031): one's own, unless a platform operator chose another
 * on 租户管理. Kept in storage with its owner (tenant and user), so it survives a reload but not
 * another user's session; logout clears it with every other key. Every admin call carries it as
 * `?tenant=<code>`, and every console query is keyed by it.
 */
import { create } from 'zustand';
import { storage } from '../../../lib/storage';
import { useSession } from '../../../lib/session';

export interface ScopedTenant {
  code: string;
  name: string;
  /** Its English name, for the bar in English mode (ADR 047). */
  nameEn?: string;
}

interface Stored extends ScopedTenant {
  owner: string;
}

const ownerOf = (): string | null => {
  const info = useSession.getState().userInfo;
  return info ? `${info.tenantCode}:${info.userId}` : null;
};

function read(): ScopedTenant | null {
  const stored = storage.get<Stored>('adminTenant');
  if (!stored || stored.owner !== ownerOf()) return null;
  return { code: stored.code, name: stored.name, nameEn: stored.nameEn };
}

export const useScope = create<{ tenant: ScopedTenant | null }>(() => ({ tenant: read() }));

/** Acts on `tenant` from now on; null (or one's own tenant) goes back to one's own. */
export function chooseTenant(tenant: ScopedTenant | null): void {
  const own = useSession.getState().userInfo?.tenantCode;
  const owner = ownerOf();
  if (!tenant || tenant.code === own || !owner) {
    storage.remove('adminTenant');
    useScope.setState({ tenant: null });
    return;
  }
  storage.set<Stored>('adminTenant', { ...tenant, owner });
  useScope.setState({ tenant });
}

/** The `tenant` query field of every admin call (absent for one's own tenant). */
export function scopeQuery(): { tenant?: string } {
  const tenant = useScope.getState().tenant;
  return tenant ? { tenant: tenant.code } : {};
}
