// The API token: from the page's #token=… fragment or the tab's sessionStorage, never the
// address bar once read.

const TOKEN_KEY = 'tickertape.token';

export class Session {
  #token: string;

  private constructor(token: string) {
    this.#token = token;
  }

  /**
   * The token the page was opened with (#token=…, then dropped from the address bar, bookmarks
   * and history), else the one this tab used before, else none.
   */
  static fromLocation(): Session {
    const hash = new URLSearchParams(location.hash.replace(/^#/, ''));
    const fromHash = hash.get('token');
    if (fromHash) {
      sessionStorage.setItem(TOKEN_KEY, fromHash);
      hash.delete('token');
      const rest = hash.toString();
      history.replaceState(
        null,
        '',
        `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`,
      );
    }
    return new Session(sessionStorage.getItem(TOKEN_KEY) ?? '');
  }

  /** '' when there is none. */
  get token(): string {
    return this.#token;
  }

  use(token: string): void {
    this.#token = token;
    sessionStorage.setItem(TOKEN_KEY, token);
  }

  forget(): void {
    this.#token = '';
    sessionStorage.removeItem(TOKEN_KEY);
  }
}
