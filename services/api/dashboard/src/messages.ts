// The message line under the header: errors, and notices such as a truncated series list.

export class MessageLine {
  constructor(private readonly element: HTMLParagraphElement) {}

  show(text: string, kind: 'error' | 'info' = 'error'): void {
    this.element.textContent = text;
    this.element.className = `message ${kind}`;
    this.element.hidden = false;
  }

  clear(): void {
    this.element.hidden = true;
    this.element.textContent = '';
  }

  /** Clears an error once things work again; notices (e.g. a truncated list) stay. */
  clearError(): void {
    if (this.element.classList.contains('error')) this.clear();
  }
}
