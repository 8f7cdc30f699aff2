import { defineConfig } from 'tsup';
import { bin } from '@svc/tsup-config';

export default defineConfig(
  bin({ entry: ['src/cli.ts'], clean: true, banner: { js: '#!/usr/bin/env node' } }),
);
