import de.bwaldvogel.mongo.backend.AbstractCursor;
import de.bwaldvogel.mongo.bson.Document;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;

/**
 * A collection's documents in {@code _id} order, between optional inclusive key bounds, filtered,
 * skipped, limited and projected as they are read — never collected. mongo-java-server collects
 * every match of a query into a list before answering (a count, a scan or an aggregation over
 * 180,000 buckets took the whole collection onto the heap). This is the find cursor's
 * implementation too: each batch re-seeks after the last key it examined, on the map's latest
 * version, so a cursor pins no old version of the store between getMores and sees concurrent
 * writes as a MongoDB cursor may (a document is returned at most once: keys only move forward).
 */
final class KeyScan extends AbstractCursor implements Iterator<Document> {
  /** mongod's first batch when a find names no batchSize. */
  static final int FIRST_BATCH = 101;
  /** A getMore without batchSize: stop at this many documents or this many decoded bytes. */
  private static final int MORE_BATCH = 1000;
  private static final long BATCH_BYTES = 8L << 20;

  private final MVMap<Object, Document> map;
  private final Object low;
  private final Object high;
  private final boolean descending;
  private final Predicate<Document> matches;
  private final UnaryOperator<Document> project;
  private int toSkip;
  private int remaining;

  private Object lastKey;
  private boolean started;
  private boolean exhausted;
  private Document pending;
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
    super(id);
    this.map = map;
    this.low = low;
    this.high = high;
    this.descending = descending;
    this.matches = matches;
    this.project = project;
    this.toSkip = Math.max(0, skip);
    this.remaining = limit > 0 ? limit : Integer.MAX_VALUE;
  }

  /** The next matching document (projected), or null at the end; advances the resume key. */
  private Document advance() {
    if (exhausted || remaining == 0) {
      exhausted = true;
      return null;
    }
    if (open == null) {
      Object from = started ? lastKey : descending ? high : low;
      open = map.cursor(from, descending ? low : high, descending);
    }
    Cursor<Object, Document> cursor = open;
    while (cursor.hasNext()) {
      Object key = cursor.next();
      if (started && key.equals(lastKey)) {
        continue;
      }
      started = true;
      lastKey = key;
      Document document = cursor.getValue();
      if (document == null || !matches.test(document)) {
        continue;
      }
      if (toSkip > 0) {
        toSkip--;
        continue;
      }
      remaining--;
      return project.apply(document);
    }
    exhausted = true;
    open = null;
    return null;
  }

  @Override
  public boolean hasNext() {
    if (pending == null) {
      pending = advance();
    }
    return pending != null;
  }

  @Override
  public Document next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Document next = pending;
    pending = null;
    return next;
  }

  @Override
  public boolean isEmpty() {
    boolean empty = !hasNext();
    open = null;
    return empty;
  }

  @Override
  public List<Document> takeDocuments(int numberToReturn) {
    int count = numberToReturn > 0 ? numberToReturn : MORE_BATCH;
    List<Document> batch = new ArrayList<>(Math.min(count, MORE_BATCH));
    long bytes = 0;
    while (batch.size() < count && bytes < BATCH_BYTES && hasNext()) {
      Document document = next();
      bytes += BsonDocumentType.heapEstimate(document);
      batch.add(document);
    }
    open = null;
    return batch;
  }
}
