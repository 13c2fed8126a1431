import { ApiError } from './api-client.js';
import type { ChartStatus } from './chart-status.js';
import type { MessageLine } from './messages.js';
import type { Session } from './session.js';

/** Shows a failure; `doing` says what failed, e.g. "listing series". */
export type ReportError = (err: unknown, doing: string) => void;

/** A refused token gets its own message, is forgotten, and sends the user to the input. */
export function errorReporter(deps: {
  session: Session;
  messages: MessageLine;
  status: ChartStatus;
  tokenInput: HTMLInputElement;
}): ReportError {
  const { session, messages, status, tokenInput } = deps;
  return (err, doing) => {
    if (err instanceof ApiError && err.status === 401) {
      session.forget();
      tokenInput.placeholder = 'paste a token';
      status.setOverlay('Enter a valid API token to continue.');
      messages.show(
        'The API refused the token (401 Unauthorized). Check it and enter it again above.',
      );
      tokenInput.focus();
      return;
    }
    if (err instanceof ApiError && err.status === 403) {
      messages.show(`This token may not read this (403 Forbidden): ${err.message}`);
      return;
    }
    const detail = err instanceof ApiError ? `${err.message} (${err.code})` : String(err);
    messages.show(`Failed ${doing}: ${detail}`);
  };
}
