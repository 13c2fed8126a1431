import de.bwaldvogel.mongo.bson.Document;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.h2.mvstore.MVMap;

/**
 * A collection's documents in {@code _id} order, between optional inclusive key bounds: every
 * query no index serves, unsorted or sorted by {@code _id}. This is the find cursor's
 * implementation too: each batch re-seeks after the last key it examined.
 */
final class KeyScan extends LazyScan {
  private final BTreeWalk<Object, Document> walk;

  KeyScan(
      long id,
      MVMap<Object, Document> map,
      Object low,
      Object high,
      boolean descending,
      Predicate<Document> matches,
      UnaryOperator<Document> project,
      int skip,
      int limit) {
    super(id, matches, project, skip, limit);
    this.walk = new BTreeWalk<>(map, descending ? high : low, descending ? low : high, descending);
  }

  @Override
  protected Document nextCandidate() {
    while (walk.next() != null) {
      Document document = walk.value();
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
