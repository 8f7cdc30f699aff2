export { chunkMarkdown } from './chunk-markdown.js';
export { NarrativeError, type NarrativeErrorCode } from './errors.js';
export {
  DISCLAIMER,
  DISCLAIMER_DE,
  ENGLISH_ONLY_NOTE,
  type NarrativeTemplateOptions,
  renderNarrativeTemplate,
  type TemplateLanguage,
  templateLanguage,
} from './render-narrative-template.js';
export { TEMPLATE_LANGUAGES, TEMPLATE_STRINGS } from './template-strings.js';
