// Copyright (c) 2026 The agentio developers
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE or copy at https://www.boost.org/LICENSE_1_0.txt)

// Vite without the React plugin: esbuild turns JSX into React's automatic
// runtime, which is all this app needs (no fast refresh in a build).
import { defineConfig } from 'vite';

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets', // hashed names: served with immutable caching
  },
  server: {
    // `npm run dev` next to a running `agentio-portfolio serve` on 8080.
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
