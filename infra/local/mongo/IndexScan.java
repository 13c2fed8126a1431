import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.bson.Document;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.h2.mvstore.MVMap;

/**
 * The documents a secondary index names between a plan's bounds, in the index's order (or its
 * reverse); each batch re-seeks after the last entry it examined, like {@link KeyScan}.
 */
final class IndexScan extends LazyScan {
  private final IndexPlan plan;
  private final BTreeWalk<KeyValue, Integer> walk;
  private final MVMap<Object, Document> documents;
  /** Positions returned of documents with more than one entry (an indexed array): once each. */
  private final Set<Object> returnedMany = new HashSet<>();

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
    this.walk = new BTreeWalk<>(plan.index.map(), plan.from(), plan.to(), plan.descending);
    this.documents = documents;
  }

  @Override
  protected Document nextCandidate() {
    for (KeyValue key = walk.next(); key != null; key = walk.next()) {
      int place = plan.place(key);
      if (place == IndexPlan.PAST) {
        return null;
      }
      Integer count = walk.value();
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
    walk.release();
  }
}
