import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { language } from './test-setup';
import { PageBoundary } from './PageBoundary';

function Broken(): never {
  throw new Error('chunk gone');
}

describe('a page that cannot load', () => {
  it('shows a way back (reload) instead of a blank page', async () => {
    await language('zh');
    const original = console.error;
    console.error = () => {};
    try {
      const view = render(
        <PageBoundary>
          <Broken />
        </PageBoundary>,
      );
      expect(view.getByTestId('page-load-failed').textContent).toContain('页面未能加载');
      expect(view.getByTestId('page-reload')).toBeTruthy();
      view.unmount();
    } finally {
      console.error = original;
    }
  });
});
