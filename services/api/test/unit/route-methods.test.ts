import { describe, expect, it } from '@jest/globals';
import { RouteMethods } from '../../src/route-methods.js';

describe('RouteMethods', () => {
  const known = new RouteMethods();
  known.add('/health', ['GET', 'HEAD']);
  known.add('/prometheus/api/v1/query', ['GET', 'HEAD']);
  known.add('/prometheus/api/v1/query', 'POST');
  known.add('/prometheus/api/v1/label/:name/values', ['GET', 'HEAD']);
  known.add('/docs/*', 'GET');
  known.add('/a.b', 'GET');

  it.each<[string, string[]]>([
    ['/health', ['GET', 'HEAD']],
    ['/prometheus/api/v1/query', ['GET', 'HEAD', 'POST']],
    ['/prometheus/api/v1/label/dir/values', ['GET', 'HEAD']],
    ['/docs/static/swagger-ui.css', ['GET']],
    ['/a.b', ['GET']],
    // A parameter is one segment, a dot is a dot, and an unknown path has no methods.
    ['/prometheus/api/v1/label/a/b/values', []],
    ['/axb', []],
    ['/healthz', []],
    ['/nothing', []],
  ])('%s is served with %j', (path, methods) => {
    expect(known.allowed(path)).toEqual(methods);
  });
});
