import de.bwaldvogel.mongo.backend.AbstractCursor;
import de.bwaldvogel.mongo.bson.Document;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * A query's answer read as it is asked for — filtered, skipped, limited and projected one
 * candidate at a time, never collected. mongo-java-server collects every match of a query into
 * a list before answering (a count, a scan or an aggregation over 180,000 buckets took the whole
 * collection onto the heap). Subclasses walk a B-tree and resume after the last key they examined
 * at each batch, on the map's latest version, so a cursor pins no old version of the store between
 * getMores and sees concurrent writes as a MongoDB cursor may (keys only move forward).
 */
abstract class LazyScan extends AbstractCursor implements Iterator<Document> {
  /** mongod's first batch when a find names no batchSize. */
  static final int FIRST_BATCH = 101;
  /** A getMore without batchSize: stop at this many documents or this many decoded bytes. */
  private static final int MORE_BATCH = 1000;
  private static final long BATCH_BYTES = 8L << 20;

  private final Predicate<Document> matches;
  private final UnaryOperator<Document> project;
  private int toSkip;
  private int remaining;
  private boolean exhausted;
  private Document pending;

  LazyScan(long id, Predicate<Document> matches, UnaryOperator<Document> project, int skip, int limit) {
    super(id);
    this.matches = matches;
    this.project = project;
    this.toSkip = Math.max(0, skip);
    this.remaining = limit > 0 ? limit : Integer.MAX_VALUE;
  }

  /** The next document in the walk's order, before the filter; null at the end. */
  protected abstract Document nextCandidate();

  /** Lets go of the open B-tree cursor: the next call of nextCandidate seeks again. */
  protected abstract void release();

  /** The next matching document (projected), or null at the end. */
  private Document advance() {
    while (!exhausted && remaining > 0) {
      Document document = nextCandidate();
      if (document == null) {
        break;
      }
      if (!matches.test(document)) {
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
    release();
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
    release();
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
    release();
    return batch;
  }
}
