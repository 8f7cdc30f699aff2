import { emptyFacts, type Fact, type FactSet, textFacts } from './grounding/facts.js';
import type { AdvisorTurnInput } from './types.js';

function untyped(facts: Fact[]): Fact[] {
  return facts.map((fact) => ({ ...fact, metrics: [], source: 'user' as const }));
}

/**
 * The facts a turn starts with: the figures the user wrote in the conversation and in the
 * attached files, untyped, anyone's and of source `user` — so they ground nothing (issue 41: "You
 * hold 1,234 shares" is not grounded by the user saying so); an attachment marked `hint` (a
 * client's snapshot) gives none; the tools' results are added as they come.
 */
export function turnFacts(input: Pick<AdvisorTurnInput, 'messages' | 'attachments'>): FactSet {
  const set = emptyFacts();
  input.messages.forEach((message, i) => {
    if (message.role === 'user') {
      set.facts.push(
        ...untyped(textFacts(message.content, { subject: '', key: `messages[${i}]` })),
      );
    }
  });
  (input.attachments ?? []).forEach((file, i) => {
    if (file.hint === true) return;
    set.facts.push(
      ...untyped(textFacts(file.text ?? '', { subject: '', key: `attachments[${i}]` })),
    );
  });
  return set;
}
