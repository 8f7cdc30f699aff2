import { bin } from '@svc/tsup-config';
import { defineConfig } from 'tsup';

export default defineConfig(bin({ entry: ['src/server.ts'], clean: true }));
