/**
 * How a tick's metric, field and tags become Prometheus names. A tick metric `M` with numeric
 * field `F` is the series name `M_F`; its tags are labels. Characters Prometheus does not allow
 * become `_`, and a leading digit gets a `_` in front, so `traffic` with field `speed` and tags
 * `segment`, `dir` is `traffic_speed{segment="I80_mile01",dir="E"}`.
 */

/** `[a-zA-Z_:][a-zA-Z0-9_:]*`: a metric name (colons allowed). */
export function metricName(metric: string, field: string): string {
  return sanitize(`${metric}_${field}`, /[^a-zA-Z0-9_:]/g);
}

/** `[a-zA-Z_][a-zA-Z0-9_]*`: a label name. */
export function labelName(tag: string): string {
  return sanitize(tag, /[^a-zA-Z0-9_]/g);
}

function sanitize(name: string, outside: RegExp): string {
  const replaced = name.replace(outside, '_');
  return /^[0-9]/.test(replaced) ? `_${replaced}` : replaced;
}

/** Labels Prometheus reserves: a tag that sanitises to one is renamed with a `tag` prefix. */
const RESERVED = /^__/;

/** The label a tag is read under: its sanitised name, `tag__x` for a tag `__x`. */
export function labelOfTag(tag: string): string {
  const label = labelName(tag);
  return RESERVED.test(label) ? `tag${label}` : label;
}

/**
 * The labels of one series' field: `__name__` and each tag under its label name. Two tags that
 * sanitise to the same label are a collision: reported, never merged silently.
 */
export function labelsOf(
  metric: string,
  field: string,
  tags: Readonly<Record<string, string>>,
): { labels: Record<string, string>; collisions: string[] } {
  const labels: Record<string, string> = { __name__: metricName(metric, field) };
  const from: Record<string, string> = {};
  const collisions: string[] = [];
  for (const tag of Object.keys(tags).sort()) {
    const label = labelOfTag(tag);
    const earlier = from[label];
    if (earlier !== undefined) {
      collisions.push(
        `tags ${JSON.stringify(earlier)} and ${JSON.stringify(tag)} are both label ${label}`,
      );
      continue;
    }
    from[label] = tag;
    labels[label] = tags[tag]!;
  }
  return { labels, collisions };
}

/** A series' identity among others: its labels in a fixed order. */
export function labelsKey(labels: Readonly<Record<string, string>>): string {
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
