import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.ValueComparator;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.MaxKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * How a query walks a secondary index: equalities on the index's first keys, then at most one
 * range ({@code $gt}, {@code $gte}, {@code $lt}, {@code $lte}) on the next key — the part of the
 * filter the index bounds; the whole filter is still applied to every document the walk reaches.
 * When the query's sort is the index's order after the equalities (or its reverse), the walk
 * yields documents in that order and a limit stops it early: the seed's window by metric reads
 * {@code limit + 1} documents of a slot instead of sorting the partition.
 */
final class IndexPlan {
  private static final ValueComparator ORDER = ValueComparator.asc();
  private static final int BEFORE = -1;
  static final int INSIDE = 0;
  static final int PAST = 1;

  final StandInSecondaryIndex index;
  /** The equality values of the index's first keys, normalized as the index stores them. */
  private final List<Object> equal;
  private Object low;
  private boolean lowInclusive;
  private Object high;
  private boolean highInclusive;
  /** Whether the walk's order is the query's sort (true when it has none). */
  final boolean sorted;
  final boolean descending;

  private IndexPlan(StandInSecondaryIndex index, List<Object> equal, Document range, Boolean order) {
    this.index = index;
    this.equal = equal;
    this.sorted = order != null;
    this.descending = order != null && order;
    if (range != null) {
      for (Map.Entry<String, Object> bound : range.entrySet()) {
        bound(bound.getKey(), normalized(bound.getValue()));
      }
    }
  }

  /** A plan for {@code query} on {@code index}, or null when the index bounds nothing in it. */
  static IndexPlan of(StandInSecondaryIndex index, Document query, Document orderBy) {
    if (!index.ascending()) {
      return null;
    }
    List<IndexKey> keys = index.getKeys();
    List<Object> equal = new ArrayList<>();
    while (equal.size() < keys.size()) {
      Object value = equality(query.get(keys.get(equal.size()).getKey()));
      if (value == null) {
        break;
      }
      equal.add(normalized(value));
    }
    Document range = equal.size() < keys.size() ? range(query.get(keys.get(equal.size()).getKey())) : null;
    if (equal.isEmpty() && range == null) {
      return null;
    }
    return new IndexPlan(index, equal, range, order(keys, equal.size(), orderBy));
  }

  /** How much of the index the plan bounds: each equality counts more than a range. */
  int selectivity() {
    return 2 * equal.size() + (low != null || high != null ? 1 : 0);
  }

  /** Where the walk starts, in its direction (null: the map's first or last key). */
  KeyValue from() {
    return descending ? upper() : lower();
  }

  /** Where the walk ends, in its direction (null: the map's last or first key). */
  KeyValue to() {
    return descending ? lower() : upper();
  }

  private KeyValue lower() {
    if (low == null) {
      return equal.isEmpty() ? null : new KeyValue(equal);
    }
    return new KeyValue(with(equal, low));
  }

  private KeyValue upper() {
    List<Object> bound = high == null ? new ArrayList<>(equal) : with(equal, high);
    // MaxKey sorts after every value: past every entry that starts with `bound`.
    return bound.isEmpty() ? null : new KeyValue(with(bound, MaxKey.getInstance()));
  }

  /** Whether an entry the walk reached is {@link #INSIDE} the bounds, {@link #PAST} them, or before. */
  int place(KeyValue entry) {
    for (int i = 0; i < equal.size(); i++) {
      if (ORDER.compare(entry.get(i), equal.get(i)) != 0) {
        return PAST;
      }
    }
    if (low == null && high == null) {
      return INSIDE;
    }
    Object value = entry.get(equal.size());
    if (low != null) {
      int order = ORDER.compare(value, low);
      if (order < 0 || order == 0 && !lowInclusive) {
        return descending ? PAST : BEFORE;
      }
    }
    if (high != null) {
      int order = ORDER.compare(value, high);
      if (order > 0 || order == 0 && !highInclusive) {
        return descending ? BEFORE : PAST;
      }
    }
    return INSIDE;
  }

  private void bound(String operator, Object value) {
    boolean inclusive = operator.endsWith("e");
    if (operator.startsWith("$g")) {
      int order = low == null ? 1 : ORDER.compare(value, low);
      if (order > 0 || order == 0 && !inclusive) {
        low = value;
        lowInclusive = inclusive;
      }
    } else {
      int order = high == null ? -1 : ORDER.compare(value, high);
      if (order < 0 || order == 0 && !inclusive) {
        high = value;
        highInclusive = inclusive;
      }
    }
  }

  /** The value of an equality condition ({@code v} or {@code {$eq: v}}), or null for another. */
  private static Object equality(Object condition) {
    if (condition instanceof Document) {
      Document expression = (Document) condition;
      return expression.size() == 1 && plain(expression.get("$eq")) ? expression.get("$eq") : null;
    }
    return plain(condition) ? condition : null;
  }

  /** A condition made only of comparisons with plain values, or null. */
  private static Document range(Object condition) {
    if (!(condition instanceof Document) || ((Document) condition).isEmpty()) {
      return null;
    }
    Document expression = (Document) condition;
    for (Map.Entry<String, Object> entry : expression.entrySet()) {
      boolean comparison = switch (entry.getKey()) {
        case "$gt", "$gte", "$lt", "$lte" -> true;
        default -> false;
      };
      if (!comparison || !plain(entry.getValue())) {
        return null;
      }
    }
    return expression;
  }

  /**
   * The walk's direction when it yields {@code orderBy}'s order — false ascending, true
   * descending — or null when it does not. Sort keys fixed by an equality order nothing; the rest
   * must be the next index keys, all in the index's direction or all against it.
   */
  private static Boolean order(List<IndexKey> keys, int equalities, Document orderBy) {
    if (orderBy == null || orderBy.isEmpty()) {
      return false;
    }
    List<String> fixed = keys.subList(0, equalities).stream().map(IndexKey::getKey).toList();
    int next = equalities;
    Boolean descending = null;
    for (Map.Entry<String, Object> sort : orderBy.entrySet()) {
      if (!(sort.getValue() instanceof Number)) {
        return null;
      }
      if (fixed.contains(sort.getKey())) {
        continue;
      }
      if (next >= keys.size() || !keys.get(next).getKey().equals(sort.getKey())) {
        return null;
      }
      boolean against = ((Number) sort.getValue()).intValue() < 0;
      if (descending != null && descending != against) {
        return null;
      }
      descending = against;
      next++;
    }
    return descending != null && descending;
  }

  /** A value an index compares: not null, an array, a sub-document or a regular expression. */
  private static boolean plain(Object value) {
    return value != null
        && !(value instanceof Document)
        && !(value instanceof Collection)
        && !BsonRegularExpression.isRegularExpression(value);
  }

  private static Object normalized(Object value) {
    return new KeyValue(value).normalized().get(0);
  }

  private static List<Object> with(List<Object> values, Object last) {
    List<Object> result = new ArrayList<>(values);
    result.add(last);
    return result;
  }
}
