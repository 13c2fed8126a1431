import de.bwaldvogel.mongo.bson.Document;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;

/**
 * A collection's documents in {@code _id} order, between optional inclusive key bounds: every
 * query no index serves, unsorted or sorted by {@code _id}. This is the find cursor's
 * implementation too: each batch re-seeks after the last key it examined.
 */
final class KeyScan extends LazyScan {
  private final MVMap<Object, Document> map;
  private final Object low;
  private final Object high;
  private final boolean descending;

  private Object lastKey;
  private boolean started;
  /** The open B-tree cursor, kept within one request; a getMore seeks again after lastKey. */
  private Cursor<Object, Document> open;

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
    this.map = map;
    this.low = low;
    this.high = high;
    this.descending = descending;
  }

  @Override
  protected Document nextCandidate() {
    if (open == null) {
      Object from = started ? lastKey : descending ? high : low;
      open = map.cursor(from, descending ? low : high, descending);
    }
    while (open.hasNext()) {
      Object key = open.next();
      if (started && key.equals(lastKey)) {
        continue;
      }
      started = true;
      lastKey = key;
      Document document = open.getValue();
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
