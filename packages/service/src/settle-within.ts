/**
 * Waits for `work` at most `ms` milliseconds; a failure or a timeout is handed to `report` (as
 * `failed: <message>` / `did not finish within <ms> ms`) instead of thrown or waited out.
 */
export async function settleWithin(
  work: Promise<unknown> | undefined,
  ms: number,
  report: (problem: string) => void,
): Promise<void> {
  if (work === undefined) return;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    const outcome = await Promise.race([work.then(() => 'done' as const), timedOut]);
    if (outcome === 'timeout') report(`did not finish within ${ms} ms`);
  } catch (error) {
    report(`failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}
