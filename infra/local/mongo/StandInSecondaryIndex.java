import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.backend.Utils;
import de.bwaldvogel.mongo.bson.Document;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.h2.mvstore.MVMap;

/**
 * A non-unique index, kept in the MVStore. mongo-java-server ignores every index that is neither
 * {@code _id} nor unique ("not yet implemented"), so the partitions' {@code start_1} and
 * {@code metric_1_start_1_series_1} did nothing: the seed's window by metric scanned a
 * 5.4-million-bucket partition and sorted it in memory, and gave no answer in 12 minutes.
 *
 * <p>Each entry's key is the document's indexed values followed by its position (its {@code _id}),
 * so keys are unique and ordered as MongoDB orders the index; the value is how many entries the
 * document has (more than one when an indexed field holds an array), which tells a scan when it
 * must remember what it returned. The index never answers the library's own lookups
 * ({@link #canHandle} is false): {@link StandInCollection} walks it, through {@link IndexScan}.
 */
final class StandInSecondaryIndex extends Index<Object> {
  private static final String ID = "_id";

  private final MVMap<KeyValue, Integer> map;

  StandInSecondaryIndex(MVMap<KeyValue, Integer> map, String name, List<IndexKey> keys, boolean sparse) {
    super(name, keys, sparse);
    this.map = map;
  }

  MVMap<KeyValue, Integer> map() {
    return map;
  }

  /** Whether every key is ascending: the only indexes the stand-in walks. */
  boolean ascending() {
    return getKeys().stream().allMatch(IndexKey::isAscending);
  }

  /** The collection's position of the document an entry names (its last element). */
  static Object positionOf(KeyValue entry) {
    return entry.get(entry.size() - 1);
  }

  @Override
  public Object getPosition(Document document) {
    // Not a lookup index: the _id index names a document's position.
    return null;
  }

  @Override
  public void checkAdd(Document document, MongoCollection<Object> collection) {
    // Not unique: nothing can conflict.
  }

  @Override
  public void add(Document document, Object position, MongoCollection<Object> collection) {
    if (isSparse() && hasNoValueForKeys(document)) {
      return;
    }
    Set<KeyValue> values = getKeyValues(document);
    for (KeyValue value : values) {
      map.put(entry(value, position), values.size());
    }
  }

  @Override
  public Object remove(Document document) {
    Object position = Missing.ofNullable(Utils.getSubdocumentValue(document, ID));
    for (KeyValue value : getKeyValues(document)) {
      map.remove(entry(value, position));
    }
    return position;
  }

  @Override
  public void checkUpdate(Document oldDocument, Document newDocument, MongoCollection<Object> collection) {
    // Not unique: nothing can conflict.
  }

  @Override
  public void updateInPlace(
      Document oldDocument, Document newDocument, Object position, MongoCollection<Object> collection) {
    if (sameKeyFields(oldDocument, newDocument)) {
      return;
    }
    for (KeyValue value : getKeyValues(oldDocument)) {
      map.remove(entry(value, position));
    }
    add(newDocument, position, collection);
  }

  /**
   * Whether an update left every indexed field as it was: true for nearly every update the
   * workers send ({@code $inc}/{@code $min}/{@code $max} on slots), so they cost a few map lookups
   * here instead of the library's key sets.
   */
  private boolean sameKeyFields(Document oldDocument, Document newDocument) {
    for (IndexKey key : getKeys()) {
      String field = key.getKey();
      Object before = Utils.getSubdocumentValueCollectionAware(oldDocument, field);
      Object after = Utils.getSubdocumentValueCollectionAware(newDocument, field);
      if (!Objects.equals(before, after)) {
        return false;
      }
    }
    return true;
  }

  private boolean hasNoValueForKeys(Document document) {
    return getKeys().stream()
        .allMatch(key -> Utils.getSubdocumentValue(document, key.getKey()) instanceof Missing);
  }

  private static KeyValue entry(KeyValue value, Object position) {
    List<Object> elements = new ArrayList<>(value.size() + 1);
    value.forEach(elements::add);
    elements.add(position);
    return new KeyValue(elements);
  }

  /** The library compares only sparseness: a unique index and a plain one of one name would pass. */
  @Override
  public boolean hasSameOptions(Index<?> other) {
    return super.hasSameOptions(other) && other.isUnique() == isUnique();
  }

  @Override
  public boolean canHandle(Document query) {
    return false;
  }

  @Override
  public Iterable<Object> getPositions(Document query) {
    throw new UnsupportedOperationException("walked by StandInCollection, not asked for positions");
  }

  @Override
  public long getCount() {
    return map.sizeAsLong();
  }

  @Override
  public long getDataSize() {
    return getCount();
  }

  @Override
  public void drop() {
    map.clear();
  }
}
