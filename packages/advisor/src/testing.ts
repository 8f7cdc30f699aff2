/**
 * Test support of `@svc/advisor` (the subpath `@svc/advisor/testing`): an OpenAI-compatible
 * chat-completions server on loopback that replays recorded and scripted streams, and builders
 * of the chunks it sends. For tests only; never used in production code.
 */
export {
  type ChunkOptions,
  chunk,
  chunkStep,
  completionJson,
  errorStep,
  type FakeToolCall,
  findRecordingsDir,
  reasoningSteps,
  type ToolCallStepsOptions,
  textSteps,
  toolCallSteps,
  usageStep,
} from './testing/chunks.js';
export {
  type FakeOpenAI,
  type FakeOpenAIOptions,
  type FakeStep,
  type FakeTurn,
  type RecordedRequest,
  startFakeOpenAI,
} from './testing/fake-openai.js';
