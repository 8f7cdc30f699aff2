import type { DocsSectionId } from '../schema.js';
import { advisorChat, advisorMoat } from './advisor.js';
import { authentication } from './authentication.js';
import { desktopClient, mcp } from './mcp.js';
import { overview } from './overview.js';
import { portfolio } from './portfolio.js';
import type { DocsAddresses, SectionText } from './shared.js';

export type { DocsAddresses, SectionText } from './shared.js';

const BUILDERS: Readonly<Record<DocsSectionId, (addresses: DocsAddresses) => SectionText>> = {
  overview,
  authentication,
  mcp,
  'desktop-client': desktopClient,
  'advisor-moat': advisorMoat,
  'advisor-chat': advisorChat,
  portfolio,
};

/** The text of one docs section, written against the service's real addresses. */
export function sectionText(id: DocsSectionId, addresses: DocsAddresses): SectionText {
  return BUILDERS[id](addresses);
}
