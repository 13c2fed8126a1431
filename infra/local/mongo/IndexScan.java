import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.bson.Document;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;

/**
 * The documents a secondary index names between a plan's bounds, in the index's order (or its
 * reverse); each batch re-seeks after the last entry it examined, like {@link KeyScan}.
 */
final class IndexScan extends LazyScan {
  private final IndexPlan plan;
  private final MVMap<KeyValue, Integer> entries;
  private final MVMap<Object, Document> documents;
  /** Positions returned of documents with more than one entry (an indexed array): once each. */
  private final Set<Object> returnedMany = new HashSet<>();

  private KeyValue lastKey;
  private Cursor<KeyValue, Integer> open;

  IndexScan(
      long id,
      IndexPlan plan,
      MVMap<Object, Document> documents,
      Predicate<Document> matches,
      UnaryOperator<Document> project,
      int skip,
      int limit) {
    super(id, matches, project, skip, limit);
    this.plan = plan;
    this.entries = plan.index.map();
    this.documents = documents;
  }

  @Override
  protected Document nextCandidate() {
    if (open == null) {
      open = entries.cursor(lastKey != null ? lastKey : plan.from(), plan.to(), plan.descending);
    }
    while (open.hasNext()) {
      KeyValue key = open.next();
      if (key.equals(lastKey)) {
        continue;
      }
      lastKey = key;
      int place = plan.place(key);
      if (place == IndexPlan.PAST) {
        return null;
      }
      Integer count = open.getValue();
      Object position = StandInSecondaryIndex.positionOf(key);
      if (place != IndexPlan.INSIDE || count != null && count > 1 && !returnedMany.add(position)) {
        continue;
      }
      Document document = documents.get(position);
      if (document != null) {
        return document;
      }
    }
    return null;
  }

  @Override
  protected void release() {
    open = null;
  }
}
