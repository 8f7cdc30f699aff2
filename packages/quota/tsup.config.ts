import { defineConfig } from 'tsup';
import { library } from '@svc/tsup-config';

export default defineConfig(library({ entry: ['src/index.ts'] }));
