/**
 * The host props both candidate hosts give the demo sub-application in the comparison: the same
 * answers for every call, so only the host library differs between the runs. (The portal's own
 * memory test uses the real server.)
 */
import type { MicroEnvelope, MicroHostProps } from '@portal/contracts';

const repairs = Array.from({ length: 10 }, (_, i) => ({
  id: String(i + 1),
  title: `报修事项 ${i + 1}`,
  location: `A栋 ${300 + i}`,
  description: '',
  status: i % 3,
  reporter: '张敏',
  mine: true,
  crtTime: '2026-11-24 10:00:00',
  updateTime: '2026-11-24 10:00:00',
}));

const answers: Record<string, unknown> = {
  '/api/front/park/repairs': { rows: repairs, total: 42 },
  '/api/front/park/rooms': [{ id: '1', name: '一号会议室', capacity: 12 }],
  '/api/front/park/bookings': [],
};

export function hostProps(route = '/repair'): MicroHostProps {
  return {
    code: 'park-services',
    route,
    onRouteChange: () => () => {},
    language: 'zh',
    getToken: () => 'token',
    user: () => ({ userId: '1', username: 'member', name: '张敏', tenantCode: 'demo' }),
    hasPermission: () => true,
    request: async <T>(path: string) =>
      ({ status: 200, message: '成功', data: answers[path] ?? null }) as MicroEnvelope<T>,
    navigate: () => {},
    logout: () => {},
  };
}

/** Resolves when the sub-application shows its rows (in the container, or in wujie's shadow root). */
export function shown(container: HTMLElement): Promise<void> {
  return new Promise((done) => {
    const check = () => {
      const scope = container.querySelector('wujie-app')?.shadowRoot ?? container;
      if (scope.querySelector('.park-row')) done();
      else requestAnimationFrame(check);
    };
    check();
  });
}

export interface CandidateHost {
  /** Loads and mounts the sub-application; resolves when its rows are shown. */
  open(): Promise<void>;
  /** Unmounts and lets go of it, the way the library offers. */
  close(): Promise<void>;
}

declare global {
  interface Window {
    candidate: CandidateHost;
  }
}
