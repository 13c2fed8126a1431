import de.bwaldvogel.mongo.backend.AbstractUniqueIndex;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import java.util.List;
import java.util.Map.Entry;
import org.h2.mvstore.MVMap;

/** H2UniqueIndex over a map keyed by {@link KeyValueType} (H2UniqueIndex's constructor is not public). */
final class StandInUniqueIndex extends AbstractUniqueIndex<Object> {
  private final MVMap<KeyValue, Object> map;

  StandInUniqueIndex(MVMap<KeyValue, Object> map, String name, List<IndexKey> keys, boolean sparse) {
    super(name, keys, sparse);
    this.map = map;
  }

  /** The library compares only sparseness: a unique index and a plain one of one name would pass. */
  @Override
  public boolean hasSameOptions(Index<?> other) {
    return super.hasSameOptions(other) && other.isUnique() == isUnique();
  }

  @Override
  protected Object removeDocument(KeyValue key) {
    return map.remove(key);
  }

  @Override
  protected boolean putKeyPosition(KeyValue key, Object position) {
    return map.putIfAbsent(key, Missing.ofNullable(position)) == null;
  }

  @Override
  protected Iterable<Entry<KeyValue, Object>> getIterable() {
    return map.entrySet();
  }

  @Override
  protected Object getPosition(KeyValue key) {
    return map.get(key);
  }

  @Override
  public long getCount() {
    return map.sizeAsLong();
  }

  @Override
  public boolean isEmpty() {
    return map.isEmpty();
  }

  @Override
  public long getDataSize() {
    return getCount();
  }
}
