import { bin } from '@svc/tsup-config';
import { defineConfig } from 'tsup';

export default defineConfig(
  bin({
    entry: {
      cli: 'src/cli.ts',
      'svc-migrate': 'src/bin/svc-migrate.ts',
      'svc-admin': 'src/bin/svc-admin.ts',
    },
    clean: true,
    banner: { js: '#!/usr/bin/env node' },
  }),
);
