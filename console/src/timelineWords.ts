import type { TFunction } from 'i18next';

/**
 * A timeline cause (`<event type>[/<failure kind>]`, e.g. `transient-failure-recorded.v1/upstream_status`)
 * in words; an event or kind the console does not know yet is shown as it came.
 */
export function describeCause(cause: string | null | undefined, t: TFunction): string {
  if (!cause) return '';
  const [event, kind] = cause.split('/', 2);
  const name = event.replace(/\.v\d+$/, '');
  const eventWords = t(`timeline.event.${name}`, { defaultValue: event });
  if (!kind) return eventWords;
  return `${eventWords}（${t(`timeline.kind.${kind}`, { defaultValue: kind })}）`;
}

/** A state in words (ok, failing, cooling, warning, error, paused, revoked, absent). */
export function describeState(state: string | null | undefined, t: TFunction): string {
  if (!state) return '—';
  return t(`timeline.state.${state}`, { defaultValue: state });
}

/** What brings an account in this status back, or null when it needs nothing. */
export function howItComesBack(status: string, t: TFunction): string | null {
  switch (status) {
    case 'error':
    case 'warning':
    case 'revoked':
    case 'cooling':
      return t(`accountWhy.back.${status}`);
    default:
      return null;
  }
}
