/**
 * The methods each path is served with, collected as routes are added, so a request with another
 * method gets 405 and an Allow header (RFC 9110 §15.5.6), as Prometheus' router answers, not 404:
 * the path exists. Patterns as Fastify writes them: `:name` one segment, `*` the rest.
 */
export class RouteMethods {
  private readonly routes: { pattern: RegExp; methods: Set<string> }[] = [];

  add(url: string, method: string | readonly string[]): void {
    const source = url
      .split('/')
      .map((part) =>
        part.startsWith(':')
          ? '[^/]+'
          : part === '*'
            ? '.*'
            : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    const methods = typeof method === 'string' ? [method] : method;
    const known = this.routes.find((route) => route.pattern.source === `^${source}$`);
    if (known) for (const m of methods) known.methods.add(m);
    else this.routes.push({ pattern: new RegExp(`^${source}$`), methods: new Set(methods) });
  }

  /** The methods a path is served with, sorted; none for a path no route serves. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.routes)
      if (route.pattern.test(path)) for (const m of route.methods) methods.add(m);
    return [...methods].sort();
  }
}
