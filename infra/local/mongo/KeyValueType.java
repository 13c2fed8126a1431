import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.backend.ValueComparator;
import de.bwaldvogel.mongo.bson.Document;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

/**
 * Keys of a unique index in the MVStore, ordered by MongoDB's value order. Left to H2's
 * ObjectDataType, a KeyValue (not Comparable) was Java-serialized and compared by its serialized
 * bytes: every B-tree comparison of an index lookup serialized both keys, and the order meant
 * nothing. Each element is written as a one-field BSON document, or as a marker for Missing.
 */
final class KeyValueType extends BasicDataType<KeyValue> {
  static final KeyValueType INSTANCE = new KeyValueType();

  private static final byte MISSING = 0;
  private static final byte VALUE = 1;
  private static final ValueComparator ORDER = ValueComparator.asc();

  private KeyValueType() {}

  @Override
  public int getMemory(KeyValue key) {
    return (int) (64 + BsonDocumentType.heapEstimate(key.stream().toList()));
  }

  @Override
  public void write(WriteBuffer buffer, KeyValue key) {
    buffer.putVarInt(key.size());
    for (Object value : key) {
      if (value instanceof Missing) {
        buffer.put(MISSING);
      } else {
        buffer.put(VALUE);
        BsonDocumentType.INSTANCE.write(buffer, new Document("v", value));
      }
    }
  }

  @Override
  public KeyValue read(ByteBuffer buffer) {
    int size = DataUtils.readVarInt(buffer);
    List<Object> values = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      values.add(buffer.get() == MISSING ? Missing.getInstance() : BsonDocumentType.INSTANCE.read(buffer).get("v"));
    }
    return new KeyValue(values);
  }

  @Override
  public int compare(KeyValue a, KeyValue b) {
    int shared = Math.min(a.size(), b.size());
    for (int i = 0; i < shared; i++) {
      int order = ORDER.compare(a.get(i), b.get(i));
      if (order != 0) {
        return order;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  @Override
  public KeyValue[] createStorage(int size) {
    return new KeyValue[size];
  }
}
