import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Built into the Maven output, where state-service serves it as a static resource at /console.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: process.env.CONSOLE_OUT_DIR ?? 'target/classes/META-INF/resources/console',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      output: {
        // the libraries change less often than the pages: their chunks stay cached across releases
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'react';
          return undefined;
        },
      },
    },
    // No inline scripts or eval: the page runs under script-src 'self'.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: { '/admin': 'http://127.0.0.1:8081' },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
    // jsdom renders of antd pages take seconds on a loaded 2-core CI machine; the 5 s default made
    // the slowest ones fail there without any fault in the page
    testTimeout: 30000,
  },
});
