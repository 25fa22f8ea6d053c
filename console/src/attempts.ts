/** One upstream attempt of a request as the request-log detail returns it (route-core AttemptStep). */
export interface AttemptStep {
  credential_id: string | null;
  model_key: string | null;
  status: number | null;
  failure_kind: string | null;
  failure_scope: string | null;
  latency_ms: number;
  decision: string;
  error: string | null;
  omitted: number | null;
}

export const DECISIONS = ['success', 'retry_same', 'fail_over', 'give_up', 'omitted'] as const;

/** The colour of an attempt's dot on the timeline: green served, blue retried, orange failed over, red gave up. */
export function decisionColor(decision: string): string {
  switch (decision) {
    case 'success':
      return 'green';
    case 'retry_same':
      return 'blue';
    case 'fail_over':
      return 'orange';
    case 'give_up':
      return 'red';
    default:
      return 'gray';
  }
}

/** The i18n key of a decision's label; an unknown decision (a newer gateway) is shown as sent. */
export function decisionKey(decision: string): string | null {
  return (DECISIONS as readonly string[]).includes(decision) ? `attempts.decision.${decision}` : null;
}

/** The attempt numbers of a chain (1-based), the omission marker standing for `omitted` attempts. */
export function attemptNumbers(chain: AttemptStep[]): number[] {
  const numbers: number[] = [];
  let next = 1;
  for (const step of chain) {
    numbers.push(next);
    next += step.decision === 'omitted' ? step.omitted ?? 0 : 1;
  }
  return numbers;
}

/** The probe filter's query value: undefined = all, 'true' = only probes, 'false' = no probes. */
export function probeParam(choice: string | undefined): 'true' | 'false' | undefined {
  return choice === 'only' ? 'true' : choice === 'hide' ? 'false' : undefined;
}
