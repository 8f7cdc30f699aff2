export {
  type AccumulatedToolCall,
  MAX_TOOL_ARGUMENT_CHARS,
  MAX_TOOL_CALLS_PER_ROUND,
  parseToolArguments,
  ThinkFilter,
  ToolCallAccumulator,
  type ToolCallBounds,
} from './accumulator.js';
export {
  advisorSystemPrompt,
  buildAdvisorMessages,
  contextBlock,
  MAX_ATTACHMENT_CHARS,
  MAX_CONTEXT_NAME_CHARS,
} from './advisor-prompt.js';
export {
  type ByteCut,
  boundedFetch,
  byteCutOf,
  DEFAULT_MAX_ANSWER_BYTES,
  DEFAULT_MAX_LINE_BYTES,
  type StreamBounds,
} from './bounded-fetch.js';
export { AdvisorError, type AdvisorErrorCode } from './errors.js';
export {
  type AdvisorFrame,
  AdvisorFrameSchema,
  DeltaFrameSchema,
  DoneFrameSchema,
  ErrorFrameSchema,
  type GroundingReport,
  GroundingReportSchema,
  type NarrativeEvent,
  NarrativeEventSchema,
  ProposalFrameSchema,
  type ProposalKind,
  ProposalKindSchema,
  type ProposalView,
  ProposalViewSchema,
  StartFrameSchema,
  ToolFrameSchema,
  type UngroundedFigure,
  UngroundedFigureSchema,
  type Usage,
  UsageSchema,
} from './frames.js';
export { dataFacts, USER_TEXT_FIELDS } from './grounding/data-facts.js';
export { evaluationFacts } from './grounding/evaluation-facts.js';
export {
  emptyFacts,
  type Fact,
  type FactSet,
  type FactUnit,
  mergeFacts,
  textFacts,
} from './grounding/facts.js';
export { extractFigures, type Figure, type FigureUnit } from './grounding/figures.js';
export {
  Grounder,
  type GroundOptions,
  groundText,
  MAX_REPORTED_FIGURES,
} from './grounding/ground.js';
export {
  type Language,
  type LanguageCode,
  languageName,
  resolveLanguage,
  SUPPORTED_LANGUAGES,
} from './languages.js';
export {
  type ModelCallParams,
  type ModelCallResult,
  streamModelCall,
} from './model-call.js';
export {
  buildNarrativeMessages,
  type NarrativeInput,
  narrativeFacts,
  streamNarrative,
} from './narrative.js';
export {
  findSymbol,
  OFFLINE_NOTICE,
  type OfflineIntent,
  offlineIntents,
} from './offline.js';
export { runAdvisorTurn, TOOL_LIMIT_TEXT } from './run-advisor-turn.js';
export { MAX_TOOL_CALLS, MAX_TOOL_ROUNDS } from './tool-runner.js';
export {
  type AdvisorTool,
  type AdvisorTurnInput,
  type Attachment,
  type ChatMessage,
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_TOTAL_TIMEOUT_MS,
  GROUND_STEP,
  MAX_DELTA_CHARS,
  type ModelEndpoint,
  type ToolOutcome,
  type TurnContext,
} from './types.js';
export {
  boundedJson,
  MAX_TOOL_RESULT_CHARS,
  newBoundary,
  spotlight,
  stripInvisible,
} from './untrusted.js';
