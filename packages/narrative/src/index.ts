export { chunkMarkdown } from './chunk-markdown.js';
export { NarrativeError, type NarrativeErrorCode } from './errors.js';
export {
  DISCLAIMER,
  ENGLISH_ONLY_NOTE,
  type NarrativeTemplateOptions,
  renderNarrativeTemplate,
} from './render-narrative-template.js';
