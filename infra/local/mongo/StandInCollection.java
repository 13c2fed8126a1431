import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;
import java.util.Collection;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.h2.mvstore.MVMap;

/**
 * An H2 collection whose queries read lazily, in {@code _id} order, through the B-tree.
 *
 * <p>Two things mongo-java-server does that a real workload cannot survive: (1) every query
 * collects all its matches into a list before answering — a count, a scan or an aggregation of
 * a 180,000-bucket partition put the whole partition on a 1 GiB heap and killed the server; (2)
 * an index serves only a filter whose keys are exactly the index's keys and whose conditions are
 * equalities or {@code $in}, so {@code {_id: {$gte, $lte}}} (every read of the query library) and
 * {@code {_id, 'ap.0': {$not: {$gte: n}}}} (the workers' guarded update) scanned and decoded the
 * whole collection. Here:
 *
 * <ul>
 *   <li>a filter with a top-level {@code _id} equality ({@code v}, {@code {$eq: v}}, {@code
 *       {$in: [...]}}) and other conditions takes its candidates from the {@code _id} index;
 *   <li>any other query the indexes cannot serve, unsorted or sorted by {@code _id} (or
 *       {@code $natural}), walks the documents in key order between the string bounds of its
 *       {@code _id} range, matching, skipping, limiting and projecting as it goes: a find answers
 *       its first batch and keeps a {@link KeyScan} cursor; counts, updates, deletes and
 *       aggregations consume the same scan as a stream;
 *   <li>the full filter is applied to every candidate, so results are those of a scan.
 * </ul>
 *
 * Other sorts keep the library's in-memory sort. Pinned by compat/mongo-id-lookup.test.ts and
 * compat/mongo-volume.test.ts.
 */
final class StandInCollection extends H2Collection {
  /**
   * The find command's first batch for the query it is about to run (set and cleared around the
   * command by StandInDatabase). Absent for the library's internal queries (count, update,
   * delete, aggregation input), which iterate the whole result themselves.
   */
  static final ThreadLocal<Integer> FIND_FIRST_BATCH = new ThreadLocal<>();

  private static final Document EVERYTHING = new Document();

  private final MVMap<Object, Document> documents;
  private final CursorRegistry cursors;

  StandInCollection(
      MongoDatabase database,
      String collectionName,
      CollectionOptions options,
      MVMap<Object, Document> documents,
      MVMap<String, Object> metaMap,
      CursorRegistry cursors) {
    super(database, collectionName, options, documents, metaMap, cursors);
    this.documents = documents;
    this.cursors = cursors;
  }

  @Override
  protected QueryResult queryDocuments(
      Document query, Document orderBy, int skip, int limit, int batchSize, Document fields) {
    Integer firstBatch = FIND_FIRST_BATCH.get();
    FIND_FIRST_BATCH.remove();
    Document idQuery = query.size() > 1 ? idEqualityQuery(query.get("_id")) : null;
    for (Index<Object> index : getIndexes()) {
      if (idQuery != null && index.canHandle(idQuery)) {
        return matchDocuments(query, index.getPositions(idQuery), orderBy, skip, limit, batchSize, fields);
      }
      if (index.canHandle(query)) {
        return super.queryDocuments(query, orderBy, skip, limit, batchSize, fields);
      }
    }
    Boolean descending = keyOrder(orderBy);
    if (descending == null || !stringKeys()) {
      return super.queryDocuments(query, orderBy, skip, limit, batchSize, fields);
    }
    Object[] bounds = stringBounds(query.get("_id"));
    UnaryOperator<Document> project =
        fields == null || fields.isEmpty() ? UnaryOperator.identity() : doc -> projectOne(doc, fields);
    if (firstBatch == null) {
      return new QueryResult(
          () -> new KeyScan(0, documents, bounds[0], bounds[1], descending, doc -> documentMatchesQuery(doc, query), project, skip, limit));
    }
    KeyScan scan =
        new KeyScan(
            cursors.generateCursorId(), documents, bounds[0], bounds[1], descending,
            doc -> documentMatchesQuery(doc, query), project, skip, limit);
    List<Document> batch = scan.takeDocuments(batchSize > 0 ? batchSize : firstBatch);
    if (scan.isEmpty()) {
      return new QueryResult(batch);
    }
    cursors.add(scan);
    return new QueryResult(batch, scan);
  }

  /**
   * The library tracks collStats' {@code size} by BSON-encoding the old and the new document of
   * every update (and each inserted one), a twelfth of the server's CPU under the workers' guarded
   * updates (JFR, the soak). Nothing on a hot path asks for it — the benchmark reads collStats once
   * per collection — so it is summed when asked instead.
   */
  @Override
  protected boolean tracksDataSize() {
    return false;
  }

  @Override
  protected int getDataSize() {
    if (documents == null) {
      // The library's constructor asks, for a debug line, before this class has its map: not a
      // scan of the whole collection at every start.
      return 0;
    }
    long total = 0;
    for (Document document : documents.values()) {
      total += BsonDocumentType.encodedSize(document);
    }
    return (int) Math.min(Integer.MAX_VALUE, total);
  }

  /** The library's projection, applied to one document. */
  private Document projectOne(Document document, Document fields) {
    return matchDocumentsFromStream(EVERYTHING, Stream.of(document), 0, 0, 0, null, fields).iterator().next();
  }

  /** Whether {@code orderBy} is key order: false ascending, true descending, null for another order. */
  private Boolean keyOrder(Document orderBy) {
    if (orderBy == null || orderBy.isEmpty()) {
      return false;
    }
    if (orderBy.size() != 1 || getIdField() == null) {
      return null;
    }
    String key = orderBy.keySet().iterator().next();
    Object direction = orderBy.get(key);
    if (!(key.equals("$natural") || key.equals(getIdField())) || !(direction instanceof Number)) {
      return null;
    }
    return ((Number) direction).intValue() < 0;
  }

  /**
   * H2 orders keys by type, then value: when the first and the last key are strings, all are,
   * and the map's order is MongoDB's {@code _id} order (strings compared by UTF-16 code unit;
   * MongoDB compares UTF-8 bytes, which differs only between U+E000–U+FFFF and supplementary
   * characters).
   */
  private boolean stringKeys() {
    return getIdField() != null
        && (documents.isEmpty() || documents.firstKey() instanceof String && documents.lastKey() instanceof String);
  }

  /** Inclusive {low, high} string bounds implied by an {@code _id} condition (null: unbounded). */
  private static Object[] stringBounds(Object condition) {
    Object[] bounds = new Object[2];
    if (condition instanceof String) {
      bounds[0] = condition;
      bounds[1] = condition;
    } else if (condition instanceof Document && !BsonRegularExpression.isRegularExpression(condition)) {
      Document expression = (Document) condition;
      for (String operator : expression.keySet()) {
        Object value = expression.get(operator);
        if (!(value instanceof String)) {
          continue;
        }
        String bound = (String) value;
        switch (operator) {
          case "$eq":
            bounds[0] = bound;
            bounds[1] = bound;
            break;
          case "$gt":
          case "$gte":
            if (bounds[0] == null || bound.compareTo((String) bounds[0]) > 0) {
              bounds[0] = bound;
            }
            break;
          case "$lt":
          case "$lte":
            if (bounds[1] == null || bound.compareTo((String) bounds[1]) < 0) {
              bounds[1] = bound;
            }
            break;
          default:
            break;
        }
      }
    }
    return bounds;
  }

  /** {@code {_id: v}} or {@code {_id: {$in: [...]}}} for an exact-match condition, else null. */
  private static Document idEqualityQuery(Object condition) {
    if (condition instanceof Document) {
      Document expression = (Document) condition;
      if (expression.size() != 1) {
        return null;
      }
      if (expression.containsKey("$eq")) {
        Object value = expression.get("$eq");
        return isPlainValue(value) ? new Document("_id", value) : null;
      }
      if (expression.containsKey("$in") && expression.get("$in") instanceof Collection) {
        for (Object value : (Collection<?>) expression.get("$in")) {
          if (!isPlainValue(value)) {
            return null;
          }
        }
        return new Document("_id", new Document("$in", expression.get("$in")));
      }
      return null;
    }
    return isPlainValue(condition) ? new Document("_id", condition) : null;
  }

  /** A value the index finds by equality: not null, an array, a sub-document or a regex. */
  private static boolean isPlainValue(Object value) {
    return value != null
        && !(value instanceof Document)
        && !(value instanceof Collection)
        && !BsonRegularExpression.isRegularExpression(value);
  }
}
