import { cleanup, render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { initI18n } from '../lib/i18n';
import { ChunkFailure } from './chunk-failure';

beforeAll(() => initI18n());
afterEach(cleanup);

it('shows a message and a reload when a page cannot load its code, not a blank page', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {}); // React reports the caught error
  const Missing = lazy(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
  render(
    <ChunkFailure>
      <Suspense>
        <Missing />
      </Suspense>
    </ChunkFailure>,
  );
  expect((await screen.findByRole('alert')).textContent).toContain('页面加载失败');
  expect(screen.getByRole('button', { name: '刷新页面' })).toBeTruthy();
});
