import type { QuotaReservation } from '@svc/quota';

/**
 * The billing rule of the AI answers, in one place (issue 17), for the advisor turn and the
 * narrative alike: the `ai_consult` unit reserved before the answer is spent once the user got
 * output (`isOutput`: visible text or a proposal); it is given back when the answer ends with
 * no output at all — the model failed (also after a tool round), answered nothing or only
 * whitespace, or the client left before the first output. A failure after output keeps it.
 *
 * @param events - The answer's frames or events.
 * @param unit - The reserved unit (`QuotaService.reserve`).
 * @param isOutput - Whether an event gives the user something.
 */
export async function* billAnswer<E>(
  events: AsyncIterable<E>,
  unit: QuotaReservation,
  isOutput: (event: E) => boolean,
): AsyncGenerator<E> {
  let answered = false;
  try {
    for await (const event of events) {
      if (!answered && isOutput(event)) answered = true;
      yield event;
    }
  } finally {
    if (!answered) await unit.refund();
  }
}
