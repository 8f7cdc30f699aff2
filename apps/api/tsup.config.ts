import { esmOnly } from '@svc/tsup-config';
import { defineConfig } from 'tsup';

export default defineConfig(
  esmOnly({ entry: ['src/index.ts', 'src/server.ts'], dts: { entry: 'src/index.ts' } }),
);
