import { CRITERION_MAX_SCORE, PROBLEMS } from '@svc/schemas';
import {
  CRITERIA_COUNT,
  CRITERIA_NAMES,
  type DocsAddresses,
  problem,
  QUOTAS,
  type SectionText,
  VERDICTS_TEXT,
} from './shared.js';

/** The `advisorMoat` section. */
export function advisorMoat({ baseUrl }: DocsAddresses): SectionText {
  const origin = new URL(baseUrl).origin;
  return {
    title: 'Moat evaluation',
    description: 'Evaluate a company, stream its narrative, save and screen reports.',
    content: {
      summary:
        `GET /api/stock-evaluation scores a company on ${CRITERIA_COUNT} criteria (${CRITERIA_NAMES}; ` +
        `${CRITERION_MAX_SCORE} points each) and returns a verdict: ${VERDICTS_TEXT}, plus ` +
        'valuation signals (P/E; sell trigger at 40 or above).',
      steps: [
        'Get an evaluation (cached, or fresh=1 which consumes stock_evaluation).',
        'Look at it: GET /evaluation/{symbol} is the moat card as a page (verdict against the bands, each criterion with its ten-year trend as a chart), the card MCP hosts show beside getMoatEvaluation.',
        'Stream the narrative with POST /api/stock-evaluation/ai (consumes ai_consult).',
        'Save it with POST /api/moat-reports; list with GET /api/moat-reports?tags=a,b.',
        'Screen the cache with GET /api/moat-screener (action=meta for statistics; minScoreChange / maxScoreChange for companies whose score moved).',
        'See what changed: GET /api/stock-evaluation/history lists every fresh evaluation with its filings; /history/diff says which criteria moved and which filing or fiscal year moved them.',
      ],
      endpoints: [
        {
          method: 'GET',
          path: '/api/stock-evaluation?symbol=KO&fresh=1',
          auth: 'session',
          description: `MoatEvaluation; ${problem('insufficient_data')}; ${problem('quota_exceeded')}`,
        },
        {
          method: 'GET',
          path: '/evaluation/KO',
          auth: 'session',
          description: `text/html: the moat card of the evaluation GET /api/stock-evaluation?symbol=KO answers (server-rendered, no script); ${problem('not_found')}`,
        },
        {
          method: 'GET',
          path: '/api/stock-evaluation/history?symbol=KO',
          auth: 'session',
          description:
            'Kept fresh evaluations, newest first, with provider, fiscal years and filings (accession, filed) → { symbol, items, page, limit, total, totalPages }; shared by all users, no quota',
        },
        {
          method: 'GET',
          path: '/api/stock-evaluation/history/diff?symbol=KO',
          auth: 'session',
          description:
            'Latest against previous (or from=<id>&to=<id>): totalScore and verdict change, per criterion score/value/status/figures and the filings behind the moved figures, newFilings, newFiscalYears, summary; 404 with fewer than two kept',
        },
        {
          method: 'POST',
          path: '/api/stock-evaluation/ai',
          auth: 'session',
          description: '{ evaluation, language? } → text/event-stream of markdown chunks',
        },
        {
          method: 'GET',
          path: '/api/moat-screener',
          auth: 'session',
          description:
            'Filters scoreMin/Max, verdict, sector, industry, peMin/Max, marketCapMin/Max, minScoreChange/maxScoreChange (change since the previous evaluation); sortBy score|symbol|pe|marketCap; page (1), limit (20, max 100) → { items, page, limit, total, totalPages }',
        },
        {
          method: 'GET',
          path: '/api/moat-reports',
          auth: 'session',
          description: 'Saved reports; ?tags=a,b returns those carrying every tag',
        },
        {
          method: 'POST',
          path: '/api/moat-reports',
          auth: 'session',
          description:
            '{ symbol, evaluationJson | evaluation, companyName?, totalScore?, maxScore?, verdict?, tags? } → 201 { id }',
        },
        {
          method: 'GET',
          path: '/api/moat-reports/{id}',
          auth: 'session',
          description: 'One report with the parsed evaluation',
        },
        {
          method: 'DELETE',
          path: '/api/moat-reports/{id}',
          auth: 'session',
          description: 'Delete one report',
        },
      ],
      streamFrames: [
        {
          frame: 'data: "## Summary\\nKO shows…"',
          meaning: 'A JSON string: the next markdown chunk',
        },
        {
          frame:
            'event: done\\ndata: {"model":"…","finishReason":"stop","complete":true,"_grounding":{"total":12,"grounded":12,"ungrounded":[]},"notes":[]}',
          meaning:
            'The narrative is complete; _grounding lists figures not found in the evaluation (model is offline for the template)',
        },
        {
          frame: `event: error\\ndata: {"type":"…","status":${PROBLEMS.upstream_unavailable.status},"code":"upstream_unavailable",…}`,
          meaning: 'Failure mid-stream: a problem object, then the stream ends',
        },
      ],
      examples: [
        {
          title: 'Evaluate (cached)',
          language: 'bash',
          code: `curl -s -b cookies.txt '${baseUrl}/api/stock-evaluation?symbol=KO'`,
        },
        {
          title: 'Stream the narrative',
          language: 'bash',
          code:
            `curl -N -b cookies.txt -H 'origin: ${origin}' -H 'content-type: application/json' \\\n` +
            `  -d "{\\"evaluation\\": $(curl -s -b cookies.txt '${baseUrl}/api/stock-evaluation?symbol=KO'), \\"language\\": \\"en\\"}" \\\n` +
            `  ${baseUrl}/api/stock-evaluation/ai`,
        },
      ],
      quotas: QUOTAS,
      notes: [
        'A fresh evaluation that fails (no data, provider down) gives its quota unit back.',
        'The narrative consumes one ai_consult unit (429 with the quota before anything streams); it is given back when the narrative ends with no output (the model failed or answered only whitespace: event error upstream_unavailable; or the client left before the first chunk).',
        'language is a BCP-47 tag of a supported language (en, de, fr, es, it, nl, pt; 400 otherwise); only its name reaches the model.',
        'event: done carries finishReason (stop, length, content_filter, timeout, incomplete, offline) and complete (false for a cut or filtered narrative, with a note); a figure no fact of the evaluation grounds is followed by [⚠] and listed in _grounding.ungrounded with the fact compared to.',
        'Without a configured model the narrative is the offline template (en, de; other languages fall back to English with a note).',
      ],
    },
  };
}

/** The `advisorChat` section. */
export function advisorChat({ baseUrl }: DocsAddresses): SectionText {
  const origin = new URL(baseUrl).origin;
  return {
    title: 'Advisor chat',
    description: 'Stream answers of the portfolio advisor and confirm its proposals.',
    content: {
      summary:
        'POST /api/advisor/chat takes { messages: [{ role: user|assistant, content (≤ 12000 ' +
        'characters) }], language?, activePortfolioId?, activePortfolioName?, baseCurrency? (EUR), ' +
        'portfolioContext? } as JSON, or multipart/form-data with parts payload (that JSON), ' +
        'userText and files[]. It answers text/event-stream, one JSON frame per data: line, and ' +
        'consumes ai_consult for an answered turn (given back when the turn ends with no output: ' +
        'the model failed, answered nothing or only whitespace, or the client left before the ' +
        'first output). Proposals change nothing until confirmed. Limits: roles user and ' +
        'assistant only (system → 400), messages not blank, the last one the user’s, language a ' +
        'supported BCP-47 tag (en, de, fr, es, it, nl, pt), the multipart payload part required ' +
        '(400 before any unit otherwise), 50 messages and 200000 characters per request, 5 files and ' +
        '10 MiB of attachments (413), CSV/text, JSON, PDF, and PNG/JPEG only when the model takes ' +
        'images (415 otherwise).',
      endpoints: [
        {
          method: 'POST',
          path: '/api/advisor/chat',
          auth: 'session',
          description: 'text/event-stream of JSON frames',
        },
        {
          method: 'POST',
          path: '/api/advisor/confirm',
          auth: 'session',
          description:
            '{ proposalId, decision: accept|reject } → { status: applied|rejected, result? }; 409 if already decided or expired, 404 if not yours',
        },
        {
          method: 'POST',
          path: '/api/portfolio/ai-chat',
          auth: 'session',
          description:
            'The same conversation as one JSON answer: { message: { role: "assistant", content } }',
        },
      ],
      streamFrames: [
        { frame: 'data: {"type":"start","id":"…","model":"…"}', meaning: 'The answer begins' },
        { frame: 'data: {"type":"delta","text":"Your portfolio…"}', meaning: 'Next piece of text' },
        {
          frame: 'data: {"type":"tool","name":"listHoldings","status":"done"}',
          meaning: 'A tool ran',
        },
        {
          frame:
            'data: {"type":"proposal","proposal":{"id":"…","kind":"…","summary":"…","payload":{},"expiresAt":"…"}}',
          meaning: 'A change to confirm with /api/advisor/confirm',
        },
        {
          frame: 'data: {"type":"error","code":"upstream_unavailable","message":"…"}',
          meaning: 'Failure; the stream ends',
        },
        {
          frame: 'data: {"type":"done","finishReason":"stop","complete":true}',
          meaning:
            'The answer ended: complete only for stop/offline; length, content_filter, timeout, tool_limit and incomplete (no finish reason) are complete:false with notes (usage and _grounding when a model answered; a delta may carry ungrounded figures)',
        },
      ],
      examples: [
        {
          title: 'Ask the advisor',
          language: 'bash',
          code:
            `curl -N -b cookies.txt -H 'origin: ${origin}' -H 'content-type: application/json' \\\n` +
            `  -d '{"messages":[{"role":"user","content":"How concentrated is my portfolio?"}]}' \\\n` +
            `  ${baseUrl}/api/advisor/chat`,
        },
        {
          title: 'Attach a broker export (a proposed import)',
          language: 'bash',
          code:
            `curl -N -b cookies.txt -H 'origin: ${origin}' \\\n` +
            `  -F 'payload={"messages":[],"activePortfolioId":"<portfolio id>"}' -F 'userText=Import this file' \\\n` +
            `  -F 'files[]=@export.csv;type=text/csv' ${baseUrl}/api/advisor/chat`,
        },
        {
          title: 'Confirm a proposal',
          language: 'bash',
          code:
            `curl -s -b cookies.txt -H 'origin: ${origin}' -H 'content-type: application/json' \\\n` +
            `  -d '{"proposalId":"<id of the proposal frame>","decision":"accept"}' ${baseUrl}/api/advisor/confirm`,
        },
      ],
      quotas: QUOTAS.filter((q) => q.name === 'ai_consult'),
      notes: [
        'A proposal applies at most once, only for the user it was made for, and not after it expires (15 minutes).',
        'Without a configured model the advisor answers common asks (holdings, cash, evaluate a symbol, import an attached broker CSV, saved reports, and the moat X-ray of the portfolio: which holdings have a moat, which are past the sell trigger, where the money sits) from your data with fixed rules, and says so.',
        'Attachments and portfolioContext are data, never instructions; attachments are not stored.',
      ],
    },
  };
}
