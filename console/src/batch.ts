import { api, modelPath, type ModelView } from './api/client';
import { modelsToClear } from './health';

/** What the credentials list can do to every selected credential at once. */
export type BatchAction = 'test' | 'pause' | 'resume' | 'clear';

export interface BatchOutcome {
  action: BatchAction;
  /** the names of the credentials the action succeeded on (a test: that passed) */
  done: string[];
  /** the names it failed on, with the reason (the API's code, or the test's verdict) */
  failed: { name: string; reason: string }[];
}

type Call = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** Runs one action on one credential; resolves to null on success, else a short reason. */
async function runOne(action: BatchAction, id: string, call: Call): Promise<string | null> {
  const base = `/credentials/${encodeURIComponent(id)}`;
  switch (action) {
    case 'pause':
    case 'resume':
      await call('POST', `${base}/${action}`);
      return null;
    case 'clear': {
      const models = await call<ModelView[]>('GET', `${base}/models`);
      for (const key of modelsToClear(models ?? [])) await call('POST', modelPath(id, key, 'clear'));
      return null;
    }
    case 'test': {
      const result = await call<{ success?: boolean; passed?: boolean; error?: { code?: string } } | null>('POST', `${base}/test`, {});
      const passed = result?.success ?? result?.passed ?? true;
      return passed ? null : (result?.error?.code ?? 'test_failed');
    }
  }
}

/**
 * The action on each selected credential in turn (one at a time: a batch never floods the service),
 * every outcome collected so the operator reads which ones it did and which it did not, and why.
 */
export async function runBatch(
  action: BatchAction,
  selected: readonly { id: string; name: string }[],
  call: Call = api,
): Promise<BatchOutcome> {
  const outcome: BatchOutcome = { action, done: [], failed: [] };
  for (const credential of selected) {
    try {
      const reason = await runOne(action, credential.id, call);
      if (reason === null) outcome.done.push(credential.name);
      else outcome.failed.push({ name: credential.name, reason });
    } catch (e) {
      const code = (e as { code?: string }).code;
      outcome.failed.push({ name: credential.name, reason: code ?? (e as Error).message });
    }
  }
  return outcome;
}

/** The names in a message, the first few and a count of the rest. */
export function nameList(names: readonly string[], shown = 5): string {
  if (names.length <= shown) return names.join(', ');
  return `${names.slice(0, shown).join(', ')} +${names.length - shown}`;
}
