import { defineConfig } from 'tsup';
import { bin } from '@svc/tsup-config';

export default defineConfig(bin({ entry: ['src/server.ts'], clean: true }));
