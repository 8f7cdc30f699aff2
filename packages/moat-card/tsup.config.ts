import { esmOnly } from '@svc/tsup-config';
import { defineConfig } from 'tsup';

export default defineConfig(esmOnly({ entry: ['src/index.ts'] }));
