// The page's elements by their ids in index.html: the one place that names them.

function byId<T extends HTMLElement>(id: string, type: { new (): T; prototype: T }): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`the page lacks #${id}`);
  return element;
}

/** Looks every element up once, at start: a missing one fails the page at once, by name. */
export function findPage() {
  return {
    tokenForm: byId('token-form', HTMLFormElement),
    token: byId('token', HTMLInputElement),
    forget: byId('forget-token', HTMLButtonElement),
    message: byId('message', HTMLParagraphElement),
    controls: byId('controls', HTMLFormElement),
    metric: byId('metric', HTMLInputElement),
    metrics: byId('metrics', HTMLDataListElement),
    tag: byId('tag', HTMLInputElement),
    find: byId('find-series', HTMLButtonElement),
    series: byId('series', HTMLSelectElement),
    field: byId('field', HTMLSelectElement),
    range: byId('range', HTMLSelectElement),
    from: byId('from', HTMLInputElement),
    to: byId('to', HTMLInputElement),
    view: byId('view', HTMLSelectElement),
    raw: byId('raw', HTMLInputElement),
    live: byId('live', HTMLInputElement),
    title: byId('chart-title', HTMLHeadingElement),
    legend: byId('legend', HTMLParagraphElement),
    chart: byId('chart', HTMLDivElement),
    key: byId('chart-key', HTMLUListElement),
    overlay: byId('chart-overlay', HTMLParagraphElement),
    resolution: byId('resolution', HTMLElement),
    source: byId('source', HTMLElement),
    examined: byId('examined', HTMLElement),
    pointCount: byId('point-count', HTMLElement),
    openCount: byId('open-count', HTMLElement),
    gapCount: byId('gap-count', HTMLElement),
    gapList: byId('gap-list', HTMLOListElement),
    freshness: byId('freshness', HTMLTableElement),
    compareForm: byId('compare-form', HTMLFormElement),
    compareLast: byId('compare-last', HTMLSelectElement),
    compareTable: byId('compare', HTMLTableElement),
    compareFacts: byId('compare-facts', HTMLParagraphElement),
  };
}

export type Page = ReturnType<typeof findPage>;
