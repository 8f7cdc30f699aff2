import { bin } from '@svc/tsup-config';
import { defineConfig } from 'tsup';

export default defineConfig(
  bin({ entry: ['src/cli.ts'], clean: true, banner: { js: '#!/usr/bin/env node' } }),
);
