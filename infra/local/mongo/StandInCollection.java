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
import java.util.Map;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.LongFunction;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * An H2 collection whose queries read lazily, through the B-trees of its documents and indexes.
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
 *   <li>a filter without {@code _id} that a secondary index bounds (equalities on its first keys,
 *       perhaps a range on the next: {@link IndexPlan}) walks that index with an {@link IndexScan},
 *       in the query's order when the index yields it (a limit then stops the walk early), else
 *       sorting just the candidates;
 *   <li>any other query the indexes cannot serve, unsorted or sorted by {@code _id} (or
 *       {@code $natural}), walks the documents in key order between the string bounds of its
 *       {@code _id} range, matching, skipping, limiting and projecting as it goes: a find answers
 *       its first batch and keeps a {@link KeyScan} cursor; counts, updates, deletes and
 *       aggregations consume the same scan as a stream;
 *   <li>the full filter is applied to every candidate, so results are those of a scan.
 * </ul>
 *
 * Other sorts keep the library's in-memory sort. Pinned by compat/mongo-id-lookup.test.ts,
 * compat/mongo-secondary-index.test.ts and compat/mongo-volume.test.ts.
 */
final class StandInCollection extends H2Collection {
  /**
   * The find command's first batch for the query it is about to run (set and cleared around the
   * command by StandInDatabase). Absent for the library's internal queries (count, update,
   * delete, aggregation input), which iterate the whole result themselves.
   */
  static final ThreadLocal<Integer> FIND_FIRST_BATCH = new ThreadLocal<>();

  private static final Document EVERYTHING = new Document();

  /** Documents an index build adds between commits. */
  private static final int BUILD_COMMIT_EVERY = 20_000;

  private final MVMap<Object, Document> documents;
  private final MVMap<String, Object> metaMap;
  private final MVStore store;
  private final CursorRegistry cursors;

  StandInCollection(
      MongoDatabase database,
      String collectionName,
      CollectionOptions options,
      MVMap<Object, Document> documents,
      MVMap<String, Object> metaMap,
      MVStore store,
      CursorRegistry cursors) {
    super(database, collectionName, options, documents, metaMap, cursors);
    this.documents = documents;
    this.metaMap = metaMap;
    this.store = store;
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
    UnaryOperator<Document> project =
        fields == null || fields.isEmpty() ? UnaryOperator.identity() : doc -> projectOne(doc, fields);
    Predicate<Document> matches = doc -> documentMatchesQuery(doc, query);
    IndexPlan plan = query.containsKey("_id") ? null : bestPlan(query, orderBy);
    if (plan != null && !plan.sorted) {
      // The index bounds the candidates; the library sorts those few in memory.
      Stream<Document> candidates =
          StreamSupport.stream(
              Spliterators.spliteratorUnknownSize(
                  new IndexScan(0, plan, documents, doc -> true, UnaryOperator.identity(), 0, 0), Spliterator.ORDERED),
              false);
      return matchDocumentsFromStream(candidates, query, orderBy, skip, limit, batchSize, fields);
    }
    if (plan != null) {
      return answer(firstBatch, batchSize, id -> new IndexScan(id, plan, documents, matches, project, skip, limit));
    }
    Boolean descending = keyOrder(orderBy);
    if (descending == null || !stringKeys()) {
      return super.queryDocuments(query, orderBy, skip, limit, batchSize, fields);
    }
    Object[] bounds = stringBounds(query.get("_id"));
    return answer(
        firstBatch, batchSize, id -> new KeyScan(id, documents, bounds[0], bounds[1], descending, matches, project, skip, limit));
  }

  /**
   * A lazy scan's answer: the whole scan as a stream for the library's own queries (count,
   * update, delete, aggregation input), or a find's first batch and a cursor for the rest.
   */
  private QueryResult answer(Integer firstBatch, int batchSize, LongFunction<LazyScan> scanWithId) {
    if (firstBatch == null) {
      return new QueryResult(() -> scanWithId.apply(0));
    }
    LazyScan scan = scanWithId.apply(cursors.generateCursorId());
    List<Document> batch = scan.takeDocuments(batchSize > 0 ? batchSize : firstBatch);
    if (scan.isEmpty()) {
      return new QueryResult(batch);
    }
    cursors.add(scan);
    return new QueryResult(batch, scan);
  }

  /** The secondary index that bounds most of {@code query}, preferring one that yields its order. */
  private IndexPlan bestPlan(Document query, Document orderBy) {
    IndexPlan best = null;
    for (Index<Object> index : getIndexes()) {
      IndexPlan plan = index instanceof StandInSecondaryIndex ? IndexPlan.of((StandInSecondaryIndex) index, query, orderBy) : null;
      if (plan != null && (best == null || rank(plan) > rank(best))) {
        best = plan;
      }
    }
    return best;
  }

  private static int rank(IndexPlan plan) {
    return 2 * plan.selectivity() + (plan.sorted ? 1 : 0);
  }

  /**
   * Adds an index; a secondary one is built here over existing documents, committing as it goes
   * (the library builds an index in one uncommitted change: 10 million entries on the heap). A
   * marker in the collection's metadata names a build in progress, so an index a crash left half
   * built is built again at the next start.
   */
  @Override
  public void addIndex(Index<Object> index) {
    if (index instanceof StandInSecondaryIndex && getIndexes().stream().noneMatch(i -> i.getName().equals(index.getName()))) {
      build((StandInSecondaryIndex) index);
    }
    super.addIndex(index);
  }

  private void build(StandInSecondaryIndex index) {
    String marker = "building index " + index.getName();
    if (metaMap.containsKey(marker)) {
      index.drop();
    }
    if (!index.isEmpty() || documents.isEmpty()) {
      return;
    }
    metaMap.put(marker, true);
    store.commit();
    long built = 0;
    for (Map.Entry<Object, Document> entry : documents.entrySet()) {
      index.add(entry.getValue(), entry.getKey(), this);
      if (++built % BUILD_COMMIT_EVERY == 0) {
        store.commit();
      }
    }
    metaMap.remove(marker);
    store.commit();
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
