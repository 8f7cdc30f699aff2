import { library } from '@svc/tsup-config';
import { defineConfig } from 'tsup';

export default defineConfig(library({ entry: ['src/index.ts'] }));
