// base './': the built page works from any path, next to its config.json (docs/frontend.md).
export default {
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // swr (under @ai-sdk/react) marks its modules 'use client', which means nothing in a plain bundle
    rollupOptions: { onwarn: (warning, warn) => warning.code === 'MODULE_LEVEL_DIRECTIVE' || warn(warning) },
  },
};
